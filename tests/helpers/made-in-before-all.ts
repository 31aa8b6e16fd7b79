// A value a test file makes once in beforeAll (a server, a merchant) but names at its top, where
// the file declares everything else: the use…() helpers return readers of such values.
import { beforeAll } from "vitest";

export interface MadeInBeforeAll<T> {
  /** The value; throws when read before beforeAll made it (at collection time, or after it failed). */
  get(): T;
  /** The value, or undefined when it was not made (for afterAll, after a failed beforeAll). */
  ifMade(): T | undefined;
}

/** Registers a beforeAll (after those registered before the call) that makes `what` with `make`. */
export function madeInBeforeAll<T>(what: string, make: () => Promise<T>): MadeInBeforeAll<T> {
  let made: { value: T } | undefined;
  beforeAll(async () => {
    made = { value: await make() };
  });
  return {
    get() {
      if (!made) throw new Error(`${what} is made in beforeAll: read it in a hook or a test`);
      return made.value;
    },
    ifMade: () => made?.value,
  };
}
