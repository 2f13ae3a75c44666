-- wrk script of bench/bench_load.py: every wrk thread has one connection and plays its own
-- games, one command after the other, from a file of commands prepared beforehand (legal, since
-- they were decided offline from each game's seed): one line per command, "path<TAB>token<TAB>body".
-- Arguments (after --): the directory of the files, and the think time in milliseconds.

local counter = 0
local threads = {}

function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

-- globals: wrk reads a thread's counters with thread:get
lines, at, think, sent, refused, exhausted, retried = {}, 0, 0, 0, 0, 0, 0

function init(args)
  local dir = args[1]
  think = tonumber(args[2] or "0")
  local file = assert(io.open(dir .. "/t" .. tid .. ".txt", "r"))
  for line in file:lines() do
    local path, token, body = line:match("^([^\t]*)\t([^\t]*)\t(.*)$")
    -- a key per command, as our clients send: a command resent after a dropped connection (wrk
    -- resends on a new one) gets its first answer instead of being applied or refused again
    table.insert(lines, wrk.format("POST", path, {
      ["Content-Type"] = "application/json",
      ["Authorization"] = "Bearer " .. token,
      ["Idempotency-Key"] = "load-" .. tid .. "-" .. (#lines + 1),
    }, body))
  end
  file:close()
end

-- wrk may call request() more than once before it sends (a thread's first call is not sent), so
-- the next command is the one after the last answered: `at` moves on in response().
function request()
  if at >= #lines then
    -- every prepared command is answered: a cheap read keeps the connection busy, counted apart
    return wrk.format("GET", "/health/live")
  end
  return lines[at + 1]
end

function delay()
  if think <= 0 then return 0 end
  return math.random(math.floor(think / 2), think + math.floor(think / 2))  -- a human's pace, not a metronome
end

function response(status, headers, body)
  if at >= #lines then
    exhausted = exhausted + 1
    return
  end
  if status >= 500 or status == 429 then
    -- overloaded or unavailable: the same command again (its key makes that safe), as a client would
    retried = retried + 1
    return
  end
  at = at + 1
  sent = sent + 1
  if status ~= 201 then
    refused = refused + 1
    if refused <= 3 then io.stderr:write("refused command " .. at .. ": " .. status .. " " .. body .. "\n") end
  end
end

function done(summary, latency, requests)
  local total_sent, total_refused, total_exhausted, total_retried = 0, 0, 0, 0
  for _, thread in ipairs(threads) do
    total_sent = total_sent + thread:get("sent")
    total_refused = total_refused + thread:get("refused")
    total_exhausted = total_exhausted + thread:get("exhausted")
    total_retried = total_retried + thread:get("retried")
  end
  io.write(string.format(
    '{"requests": %d, "seconds": %.3f, "commands": %d, "refused": %d, "retried": %d, "exhausted": %d, ' ..
    '"socket_errors": %d, "p50_ms": %.2f, "p90_ms": %.2f, "p99_ms": %.2f, "max_ms": %.2f}\n',
    summary.requests, summary.duration / 1e6, total_sent, total_refused, total_retried, total_exhausted,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000))
end
