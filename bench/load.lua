-- wrk script of bench/bench_load.py: every wrk thread has one connection and plays its own
-- games, one command after the other, from a file of commands prepared beforehand (legal, since
-- they were decided offline from each game's seed): one line per request, "kind<TAB>path<TAB>token<TAB>body",
-- kind C a command, R a read the web client makes after a move (sent with the ETag of its last answer
-- for that path and token in If-None-Match, as a browser's cache does).
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
kinds, paths, tokens, etags, reads, not_modified, reads_failed = {}, {}, {}, {}, 0, 0, 0

function init(args)
  local dir = args[1]
  think = tonumber(args[2] or "0")
  local file = assert(io.open(dir .. "/t" .. tid .. ".txt", "r"))
  for line in file:lines() do
    local kind, path, token, body = line:match("^([CR])\t([^\t]*)\t([^\t]*)\t(.*)$")
    table.insert(kinds, kind)
    table.insert(paths, path)
    table.insert(tokens, token)
    if kind == "C" then
      -- a key per command, as our clients send: a command resent after a dropped connection (wrk
      -- resends on a new one) gets its first answer instead of being applied or refused again
      table.insert(lines, wrk.format("POST", path, {
        ["Content-Type"] = "application/json",
        ["Authorization"] = "Bearer " .. token,
        ["Idempotency-Key"] = "load-" .. tid .. "-" .. (#lines + 1),
      }, body))
    else
      table.insert(lines, false)  -- built when sent: its If-None-Match is the last answer's ETag
    end
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
  local i = at + 1
  if kinds[i] == "C" then return lines[i] end
  local headers = { ["Accept"] = "application/json" }
  if tokens[i] ~= "" then headers["Authorization"] = "Bearer " .. tokens[i] end
  local etag = etags[paths[i]:match("^[^?]*") .. tokens[i]]
  if etag then headers["If-None-Match"] = etag end
  return wrk.format("GET", paths[i], headers)
end

function delay()
  -- a person thinks before a move; the page reads at once after one
  if think <= 0 or kinds[at + 1] == "R" then return 0 end
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
    if retried <= 2 then io.stderr:write("retried " .. kinds[at + 1] .. " " .. paths[at + 1] .. ": " .. status .. " " .. body:sub(1, 200) .. "\n") end
    return
  end
  at = at + 1
  if kinds[at] == "R" then
    reads = reads + 1
    if status == 304 then not_modified = not_modified + 1
    elseif status ~= 200 then
      reads_failed = reads_failed + 1
      if reads_failed <= 3 then io.stderr:write("read " .. paths[at] .. ": " .. status .. " " .. body .. "\n") end
    end
    local etag = headers["etag"] or headers["ETag"]
    if etag then etags[paths[at]:match("^[^?]*") .. tokens[at]] = etag end
    return
  end
  sent = sent + 1
  if status ~= 201 then
    refused = refused + 1
    if refused <= 3 then io.stderr:write("refused command " .. at .. ": " .. status .. " " .. body .. "\n") end
  end
end

function done(summary, latency, requests)
  local total_sent, total_refused, total_exhausted, total_retried = 0, 0, 0, 0
  local total_reads, total_not_modified, total_reads_failed = 0, 0, 0
  for _, thread in ipairs(threads) do
    total_reads = total_reads + thread:get("reads")
    total_not_modified = total_not_modified + thread:get("not_modified")
    total_reads_failed = total_reads_failed + thread:get("reads_failed")
    total_sent = total_sent + thread:get("sent")
    total_refused = total_refused + thread:get("refused")
    total_exhausted = total_exhausted + thread:get("exhausted")
    total_retried = total_retried + thread:get("retried")
  end
  io.write(string.format(
    '{"requests": %d, "seconds": %.3f, "commands": %d, "refused": %d, "retried": %d, "exhausted": %d, ' ..
    '"socket_errors": %d, "p50_ms": %.2f, "p90_ms": %.2f, "p99_ms": %.2f, "max_ms": %.2f, ' ..
    '"reads": %d, "not_modified": %d, "reads_failed": %d}\n',
    summary.requests, summary.duration / 1e6, total_sent, total_refused, total_retried, total_exhausted,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, total_reads, total_not_modified, total_reads_failed))
end
