// The schemas of the hosted-field protocol (lib/cardholder/protocol.ts): a few combinators with
// zod's shape (safeParse / parse, types inferred with Infer), small enough for the browser bundles.
// Why not zod here: zod/mini's core alone is about 7 KB gzip, most of the 8 KB a field page may
// weigh (issue 14; docs/decisions/0077-lighter-hosted-fields-and-a-one-request-gopay.md); every message of this protocol
// is a flat object of strings, numbers, booleans and literals, which these dozen lines check
// exactly. Objects keep only their declared keys (a card value cannot ride along in a message).
// Everything else in the service keeps zod.

export type SafeParseResult<T> = { success: true; data: T } | { success: false; data?: undefined };

export interface WireSchema<T> {
  safeParse(value: unknown): SafeParseResult<T>;
  /** The value, or throws (for answers of our own server: a mismatch is a bug, not an input). */
  parse(value: unknown): T;
  /** Set on optional members: an absent key passes. */
  readonly optional?: true;
}

export type Infer<S> = S extends WireSchema<infer T> ? T : never;

const FAIL = { success: false } as const;

function schema<T>(check: (value: unknown) => SafeParseResult<T>, optional?: true): WireSchema<T> {
  return {
    safeParse: check,
    parse(value) {
      const result = check(value);
      if (!result.success) throw new TypeError("unexpected message");
      return result.data;
    },
    ...(optional ? { optional } : {}),
  };
}

const pass = <T>(ok: boolean, data: T): SafeParseResult<T> => (ok ? { success: true, data } : FAIL);

export function string(rules: { regex?: RegExp; max?: number } = {}): WireSchema<string> {
  return schema((value) =>
    pass(
      typeof value === "string" && (!rules.regex || rules.regex.test(value)) && value.length <= (rules.max ?? Infinity),
      value as string,
    ),
  );
}

export const number = (): WireSchema<number> =>
  schema((value) => pass(typeof value === "number" && Number.isFinite(value), value as number));

export const boolean = (): WireSchema<boolean> => schema((value) => pass(typeof value === "boolean", value as boolean));

/** One of these exact values (a literal is an enum of one). */
export function oneOf<const V extends readonly (string | number | boolean)[]>(values: V): WireSchema<V[number]> {
  return schema((value) => pass(values.includes(value as V[number]), value as V[number]));
}

export function optional<T>(inner: WireSchema<T>): WireSchema<T | undefined> {
  return schema<T | undefined>((value) => (value === undefined ? { success: true, data: undefined } : inner.safeParse(value)), true);
}

export function nullable<T>(inner: WireSchema<T>): WireSchema<T | null> {
  return schema<T | null>((value) => (value === null ? { success: true, data: null } : inner.safeParse(value)));
}

type Shape = Record<string, WireSchema<unknown>>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: undefined extends Infer<S[K]> ? K : never }[keyof S];
type ObjectOf<S extends Shape> = { [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> };
type Flat<T> = { [K in keyof T]: T[K] };

export interface ObjectSchema<S extends Shape> extends WireSchema<Flat<ObjectOf<S>>> {
  readonly shape: S;
}

export function object<S extends Shape>(shape: S): ObjectSchema<S> {
  const check = (value: unknown): SafeParseResult<Flat<ObjectOf<S>>> => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return FAIL;
    const data: Record<string, unknown> = {};
    for (const key in shape) {
      const member = (value as Record<string, unknown>)[key];
      const result = shape[key]!.safeParse(member);
      if (!result.success) return FAIL;
      if (member !== undefined) data[key] = result.data;
    }
    return { success: true, data: data as Flat<ObjectOf<S>> };
  };
  return { ...schema(check), shape };
}

/** The object whose `key` member names it, as zod's discriminatedUnion. */
export function union<K extends string, O extends ObjectSchema<Shape>[]>(key: K, options: [...O]): WireSchema<Infer<O[number]>> {
  return schema((value) => {
    const tag = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    for (const option of options) {
      if (option.shape[key]!.safeParse(tag).success) return option.safeParse(value) as SafeParseResult<Infer<O[number]>>;
    }
    return FAIL;
  });
}
