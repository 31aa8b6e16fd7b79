// The conditions of step.waitForEvent that the embedded executor evaluates. The SDK sends
// `match: "data.id"` as `event.data.id == async.data.id` and passes `if` through; `event` is the
// run's triggering event and `async` the candidate. Supported: comparisons with == of paths of
// either and text, number or boolean literals, joined with &&. Anything else is refused when the
// wait starts, so a run never waits on a condition that can never be evaluated.

type Operand = { scope: "event" | "async"; path: string[] } | { literal: string | number | boolean };
export type WaitCondition = { left: Operand; right: Operand }[];

function parseOperand(text: string): Operand | undefined {
  const trimmed = text.trim();
  const path = /^(event|async)((?:\.[A-Za-z_][A-Za-z0-9_]*)+)$/.exec(trimmed);
  if (path) return { scope: path[1] as "event" | "async", path: (path[2] as string).slice(1).split(".") };
  const quoted = /^(?:'([^']*)'|"([^"]*)")$/.exec(trimmed);
  if (quoted) return { literal: (quoted[1] ?? quoted[2]) as string };
  if (/^-?\d+(?:\.\d+)?$/.test(trimmed)) return { literal: Number(trimmed) };
  if (trimmed === "true" || trimmed === "false") return { literal: trimmed === "true" };
  return undefined;
}

export function parseWaitCondition(expression: string): WaitCondition | undefined {
  const condition: WaitCondition = [];
  for (const part of expression.split("&&")) {
    const sides = part.split("==");
    if (sides.length !== 2) return undefined;
    const left = parseOperand(sides[0] as string);
    const right = parseOperand(sides[1] as string);
    if (!left || !right) return undefined;
    condition.push({ left, right });
  }
  return condition;
}

function valueOf(operand: Operand, scopes: { event: unknown; async: unknown }): unknown {
  if ("literal" in operand) return operand.literal;
  let current: unknown = scopes[operand.scope];
  for (const key of operand.path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Whether the candidate event (`async`) satisfies the condition for the run's event. */
export function waitConditionHolds(condition: WaitCondition, scopes: { event: unknown; async: unknown }): boolean {
  return condition.every(({ left, right }) => {
    const a = valueOf(left, scopes);
    return a !== undefined && a === valueOf(right, scopes);
  });
}
