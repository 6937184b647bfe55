/** A positive whole number, or no match (the not-found page). */
const parseId = (raw: string) => (/^[1-9]\d*$/.test(raw) ? Number(raw) : NaN);

/**
 * The id of /projects/{id}/<tab> (SPEC §2 Routes): anything but a positive whole number is not found.
 * Apart from EditRoute so the route tree (in the first bundle) does not pull in the edit screen (issue 18).
 */
export const EDIT_ROUTE_PARAMS = {
  parse: ({ id }: { id: string }) => {
    const parsed = parseId(id);
    return Number.isNaN(parsed) ? false : { id: parsed };
  },
  stringify: ({ id }: { id: number }) => ({ id: String(id) }),
} as const;
