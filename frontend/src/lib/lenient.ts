/**
 * The wire types come from the server's OpenAPI document (lib/api-schema.ts, generated; see
 * docs/frontend.md "Wire types"). Some transforms read more than our server sends, on purpose:
 * spec §3 asks a client to show what it can of a post or comment with a field missing or null.
 * Their input is the generated type made lenient here, in one place, with any wider field
 * spelled out beside it (`Lenient<Omit<PostJson, 'user_liked'>> & { user_liked?: … }`), never
 * a hand-written copy of the shape.
 */

/** `T` with every field, at every depth, allowed to be missing or null. */
export type Lenient<T> = T extends readonly (infer Item)[]
  ? Lenient<Item>[]
  : T extends object
    ? { [K in keyof T]?: Lenient<T[K]> | null }
    : T;
