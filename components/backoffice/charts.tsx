// Small accessible charts. The plot (bars, lines) is an SVG stretched to its box; the axis labels,
// the points and the hover values are HTML around and over it, so their text keeps its size at any
// width: a 640-unit SVG scaled to a phone's 330 px made 10-unit labels 5 px tall, and money labels
// wider than the left padding were cut off (issue 13). Each day is a focusable column whose value
// shows on hover and on focus (role="tooltip") and is its accessible name, for screen readers too.
import type { ReactNode } from "react";
import { formatMoney } from "./format";

export interface Series {
  name: string;
  color: string;
  values: number[];
}

function niceMax(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const steps = [1, 2, 2.5, 5, 10];
  return (steps.find((step) => step * magnitude >= value) ?? 10) * magnitude;
}

/** Every how many days a date is written under the axis: at most 6 labels, whatever the width. */
function labelStep(count: number): number {
  return Math.max(1, Math.ceil(count / 6));
}

const FRACTIONS = [1, 0.5, 0] as const;

/** Tooltips open away from the nearer edge, so that none leaves a phone's screen. */
function tooltipAnchor(index: number, count: number): string {
  if (index < count / 3) return "left-0";
  if (index >= (2 * count) / 3) return "right-0";
  return "left-1/2 -translate-x-1/2";
}

/** The frame both charts share: y labels on the left, the plot, the day columns, x labels below. */
function ChartFrame({
  title,
  summary,
  labels,
  yLabels,
  plot,
  columns,
  series,
}: {
  title: string;
  summary: string;
  labels: string[];
  yLabels: string[];
  plot: ReactNode;
  columns: { label: string; lines: string[]; dots?: { color: string; value: number }[] }[];
  series: { name: string; color: string }[];
}) {
  const step = labelStep(labels.length);
  return (
    <figure aria-label={title} data-testid="chart">
      <p className="sr-only">{`${title}. ${summary}`}</p>
      <div className="flex gap-2">
        <div className="flex h-40 shrink-0 flex-col justify-between text-right text-[11px] leading-none text-slate-500 sm:h-48" aria-hidden>
          {yLabels.map((label, index) => (
            <span key={index} data-testid="axis-label" className="-my-[0.5em] whitespace-nowrap tabular-nums">
              {label}
            </span>
          ))}
        </div>
        <div className="min-w-0 flex-1">
          <div className="relative h-40 sm:h-48">
            <svg className="absolute inset-0 h-full w-full overflow-visible" viewBox={`0 0 ${Math.max(1, labels.length)} 100`} preserveAspectRatio="none" aria-hidden>
              {FRACTIONS.map((fraction) => (
                <line key={fraction} x1={0} x2={Math.max(1, labels.length)} y1={100 * (1 - fraction)} y2={100 * (1 - fraction)} stroke="#e2e8f0" vectorEffect="non-scaling-stroke" />
              ))}
              {plot}
            </svg>
            <div className="absolute inset-0 flex">
              {columns.map((column, index) => (
                <div
                  key={column.label}
                  tabIndex={0}
                  role="img"
                  aria-label={`${column.label}: ${column.lines.join("; ")}`}
                  data-testid="chart-day"
                  data-day={column.label}
                  className="group relative flex-1 outline-none hover:bg-slate-900/5 focus-visible:bg-slate-900/10"
                >
                  {column.dots?.map((dot) => (
                    <span key={dot.color} aria-hidden className="absolute left-1/2 h-1.5 w-1.5 -translate-x-1/2 translate-y-1/2 rounded-full" style={{ bottom: `${dot.value * 100}%`, backgroundColor: dot.color }} />
                  ))}
                  <div
                    role="tooltip"
                    className={`pointer-events-none absolute bottom-full z-10 mb-1 hidden w-max max-w-[12rem] rounded-md bg-slate-900 px-2 py-1 text-xs text-white shadow group-hover:block group-focus-visible:block ${tooltipAnchor(index, columns.length)}`}
                  >
                    <p className="font-medium">{column.label}</p>
                    {column.lines.map((line) => (
                      <p key={line} className="whitespace-nowrap">{line}</p>
                    ))}
                  </div>
                </div>
              ))}
            </div>
          </div>
          <div className="mt-1.5 flex text-[11px] leading-none text-slate-500" aria-hidden>
            {labels.map((label, index) => (
              <span key={label} className="relative h-3 flex-1">
                {index % step === 0 ? (
                  <span data-testid="axis-label" className="absolute left-1/2 top-0 -translate-x-1/2 whitespace-nowrap tabular-nums">
                    {label.slice(5)}
                  </span>
                ) : null}
              </span>
            ))}
          </div>
        </div>
      </div>
      <Legend series={series} />
    </figure>
  );
}

/** Stacked bars per day, one colour per series (e.g. volume by processor). */
export function StackedBarChart({
  title,
  labels,
  series,
  formatValue,
  formatExact = formatValue,
  summary,
}: {
  title: string;
  labels: string[];
  series: Series[];
  /** Axis labels (rounded). */
  formatValue: (value: number) => string;
  /** The values on hover (exact). */
  formatExact?: (value: number) => string;
  summary: string;
}) {
  const totals = labels.map((_, index) => series.reduce((sum, entry) => sum + (entry.values[index] ?? 0), 0));
  const max = niceMax(Math.max(0, ...totals));
  const plot = labels.map((label, index) => {
    let offset = 0;
    return (
      <g key={label}>
        {series.map((entry) => {
          const value = entry.values[index] ?? 0;
          const height = (value / max) * 100;
          offset += height;
          return value > 0 ? <rect key={entry.name} x={index + 0.15} y={100 - offset} width={0.7} height={height} fill={entry.color} /> : null;
        })}
      </g>
    );
  });
  const columns = labels.map((label, index) => {
    const parts = series.filter((entry) => (entry.values[index] ?? 0) > 0).map((entry) => `${entry.name} ${formatExact(entry.values[index]!)}`);
    return { label, lines: parts.length === 0 ? ["none"] : parts.length > 1 ? [...parts, `total ${formatExact(totals[index]!)}`] : parts };
  });
  return <ChartFrame title={title} summary={summary} labels={labels} yLabels={FRACTIONS.map((fraction) => formatValue(max * fraction))} plot={plot} columns={columns} series={series} />;
}

/** Lines per series on a 0-100 % axis (approval rate); days without decided payments leave gaps. */
export function RateLineChart({ title, labels, series, summary }: { title: string; labels: string[]; series: (Omit<Series, "values"> & { values: (number | null)[] })[]; summary: string }) {
  const x = (index: number) => index + 0.5;
  const y = (value: number) => 100 * (1 - value);
  const plot = series.map((entry) => {
    const segments: string[] = [];
    let current = "";
    entry.values.forEach((value, index) => {
      if (value === null) {
        if (current) segments.push(current);
        current = "";
      } else current += `${current ? "L" : "M"}${x(index).toFixed(2)},${y(value).toFixed(2)}`;
    });
    if (current) segments.push(current);
    return (
      <g key={entry.name}>
        {segments.map((d) => (
          <path key={d} d={d} fill="none" stroke={entry.color} strokeWidth="2" vectorEffect="non-scaling-stroke" />
        ))}
      </g>
    );
  });
  const columns = labels.map((label, index) => {
    const present = series.filter((entry) => entry.values[index] !== null && entry.values[index] !== undefined);
    return {
      label,
      lines: present.length === 0 ? ["no decided payments"] : present.map((entry) => `${entry.name} ${(entry.values[index]! * 100).toFixed(1)}%`),
      dots: present.map((entry) => ({ color: entry.color, value: entry.values[index]! })),
    };
  });
  return <ChartFrame title={title} summary={summary} labels={labels} yLabels={FRACTIONS.map((fraction) => `${Math.round(fraction * 100)}%`)} plot={plot} columns={columns} series={series} />;
}

function Legend({ series }: { series: { name: string; color: string }[] }) {
  return (
    <figcaption className="mt-3 flex flex-wrap gap-4 text-xs text-slate-600">
      {series.map((entry) => (
        <span key={entry.name} className="inline-flex items-center gap-1.5">
          <span aria-hidden className="h-2.5 w-2.5 rounded-sm" style={{ backgroundColor: entry.color }} />
          {entry.name}
        </span>
      ))}
    </figcaption>
  );
}

export function moneyAxis(currency: string) {
  return (value: number) => formatMoney(BigInt(Math.round(value)), currency).replace(/\.\d+ /, " ");
}
