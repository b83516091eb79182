// The graded task world: level 0, one short function in one file; level 1, a family's functions in
// one file; level 2, the corpus libraries (several files, longer code). Levels 0 and 1 come from the
// function corpus (functions.ts) with one bug of a kind that reading the code and the failing test can
// fix; level 2 is the library build (build.ts).

/** Mutation operators of levels 0 and 1 (mutate.ts): each bug is one token, inferable from the code and
 *  the failing call. remove-statement (invent a missing line), string, return-value, swap-arguments and
 *  method-swap stay at level 2. */
export const LEVEL0_OPERATORS = ['comparison', 'boundary', 'arithmetic', 'logical', 'negate-condition', 'off-by-one'] as const;

export type Level = 0 | 1 | 2;
