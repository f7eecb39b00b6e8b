// The generated types in use, as a frontend would: tsc --strict must accept this.
import type { components, paths } from "./api";

type View = components["schemas"]["heros-tavern.ViewEnvelope"];
type Body = paths["/v1/matches/{match_id}/commands"]["post"]["requestBody"]["content"]["application/json"];

export function firstLegal(view: View): Body | undefined {
  const command: components["schemas"]["heros-tavern.Command"] | undefined = view.legal[0];
  return command === undefined ? undefined : { ...command, expected_version: view.version };
}
