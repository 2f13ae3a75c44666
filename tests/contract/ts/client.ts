// A small client written against the generated types: it must type-check with `tsc --strict`.
import type { components, paths } from "./api";

type Schemas = components["schemas"];
type Choices = paths["/games/{game_id}/options"]["get"]["responses"]["200"]["content"]["application/json"];
type Choice = Schemas["PantheonChoice"];
type Command = NonNullable<Choice["command"]>;
type Body = paths["/games/{game_id}/commands"]["post"]["requestBody"]["content"]["application/json"];
type Lobby = paths["/games"]["get"]["responses"]["200"]["content"]["application/json"];
type Events = paths["/games/{game_id}/events"]["get"]["responses"]["200"]["content"]["application/json"];

/** The body to send for a choice, or the `after` token to ask for the choices that follow it. */
export function commandOf(choice: Choice): { body: Body } | { after: string } {
  if (choice.command) {
    const body: Body = choice.command;
    return { body };
  }
  if (!choice.next) throw new Error(`choice ${choice.key} has neither a command nor a next token`);
  return { after: choice.next };
}

/** A movement that places one foot, built by hand: the seat is not part of it (openapi-typescript
 * makes fields with a default required, so `jump` is spelled out). */
export const move: Command = { type: "move", cards: 1, placements: [{ piece: "foot", hex: [16, 5], jump: false }] };

export function firstCommand(answer: Choices): Body | undefined {
  if (answer.kind !== "pantheon") return undefined;
  for (const choice of answer.choices) {
    const next = commandOf(choice);
    if ("body" in next) return next.body;
  }
  return undefined;
}

export function openGames(page: Lobby): string[] {
  return page.games.filter((g) => g.open_seats.length > 0).map((g) => `${g.kind}:${g.game}`);
}

export function movedSteps(page: Events): number {
  let steps = 0;
  for (const event of page.events) {
    if (event.payload.type === "moved") steps += event.payload.steps; // narrowed by the discriminator
  }
  return steps;
}

export function score(view: Schemas["PantheonScoreAnswer"], seat: number): number {
  return view.view.seats[seat]?.total ?? 0;
}
