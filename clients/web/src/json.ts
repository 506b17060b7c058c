// JSON as the page handles it without knowing the game: what the service's answers and the
// families' moves are made of. A leaf, so that every module may name these types.

/** A wire value: JSON. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type Wire = { [key: string]: Json };
