// The generated types in use, as a frontend would: tsc --strict must accept this.
import type { components, paths } from "./api";

type View = components["schemas"]["heros-tavern.ViewEnvelope"];
type Body = paths["/v1/matches/{match_id}/commands"]["post"]["requestBody"]["content"]["application/json"];

export function firstLegal(view: View): Body | undefined {
  const command: components["schemas"]["heros-tavern.Command"] | undefined = view.legal[0];
  return command === undefined ? undefined : { ...command, expected_version: view.version };
}

// Bodies as a client writes them: what has a default may be left out (openapi-typescript's defaults),
// options are the game's own, and online play's commands are commands.
export const create: components["schemas"]["CreateMatch"] = {
  game: "tavern-masters",
  seats: 2,
  options: { dirty_deeds: true },
};
export const join: components["schemas"]["Join"] = {};
export const concede: Body = { type: "Concede" };
export const clock: number | null | undefined = ({} as View).players[0]?.clock?.deadline;
