// Small accessible SVG charts: each has a title, a text summary for screen readers, and a data
// table fallback (visually hidden) with the exact numbers.
import { formatMoney } from "./format";

export interface Series {
  name: string;
  color: string;
  values: number[];
}

const WIDTH = 640;
const HEIGHT = 200;
const PAD = { top: 12, right: 8, bottom: 24, left: 44 };

function niceMax(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const steps = [1, 2, 2.5, 5, 10];
  return (steps.find((step) => step * magnitude >= value) ?? 10) * magnitude;
}

/** Stacked bars per day, one colour per series (e.g. volume by processor). */
export function StackedBarChart({ title, labels, series, formatValue, summary }: { title: string; labels: string[]; series: Series[]; formatValue: (value: number) => string; summary: string }) {
  const totals = labels.map((_, index) => series.reduce((sum, entry) => sum + (entry.values[index] ?? 0), 0));
  const max = niceMax(Math.max(0, ...totals));
  const innerWidth = WIDTH - PAD.left - PAD.right;
  const innerHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = innerWidth / Math.max(1, labels.length);
  const barWidth = Math.max(2, slot * 0.7);
  const y = (value: number) => (value / max) * innerHeight;
  return (
    <figure>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${title}. ${summary}`} className="h-auto w-full">
        {[0, 0.5, 1].map((fraction) => (
          <g key={fraction}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={PAD.top + innerHeight * (1 - fraction)} y2={PAD.top + innerHeight * (1 - fraction)} stroke="#e2e8f0" />
            <text x={PAD.left - 6} y={PAD.top + innerHeight * (1 - fraction) + 4} textAnchor="end" fontSize="10" fill="#64748b">
              {formatValue(max * fraction)}
            </text>
          </g>
        ))}
        {labels.map((label, index) => {
          let offset = 0;
          return (
            <g key={label}>
              {series.map((entry) => {
                const value = entry.values[index] ?? 0;
                const height = y(value);
                offset += height;
                return value > 0 ? (
                  <rect key={entry.name} x={PAD.left + index * slot + (slot - barWidth) / 2} y={PAD.top + innerHeight - offset} width={barWidth} height={height} fill={entry.color}>
                    <title>{`${label} · ${entry.name}: ${formatValue(value)}`}</title>
                  </rect>
                ) : null;
              })}
              {index % Math.ceil(labels.length / 6) === 0 ? (
                <text x={PAD.left + index * slot + slot / 2} y={HEIGHT - 6} textAnchor="middle" fontSize="10" fill="#64748b">
                  {label.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <Legend series={series} />
    </figure>
  );
}

/** Lines per series on a 0-100 % axis (approval rate); days without decided payments leave gaps. */
export function RateLineChart({ title, labels, series, summary }: { title: string; labels: string[]; series: (Omit<Series, "values"> & { values: (number | null)[] })[]; summary: string }) {
  const innerWidth = WIDTH - PAD.left - PAD.right;
  const innerHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (index: number) => PAD.left + (labels.length <= 1 ? innerWidth / 2 : (index / (labels.length - 1)) * innerWidth);
  const y = (value: number) => PAD.top + innerHeight * (1 - value);
  return (
    <figure>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${title}. ${summary}`} className="h-auto w-full">
        {[0, 0.5, 1].map((fraction) => (
          <g key={fraction}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(fraction)} y2={y(fraction)} stroke="#e2e8f0" />
            <text x={PAD.left - 6} y={y(fraction) + 4} textAnchor="end" fontSize="10" fill="#64748b">
              {Math.round(fraction * 100)}%
            </text>
          </g>
        ))}
        {series.map((entry) => {
          const segments: string[] = [];
          let current = "";
          entry.values.forEach((value, index) => {
            if (value === null) {
              if (current) segments.push(current);
              current = "";
            } else current += `${current ? "L" : "M"}${x(index).toFixed(1)},${y(value).toFixed(1)}`;
          });
          if (current) segments.push(current);
          return (
            <g key={entry.name}>
              {segments.map((d) => (
                <path key={d} d={d} fill="none" stroke={entry.color} strokeWidth="2" />
              ))}
              {entry.values.map((value, index) =>
                value === null ? null : (
                  <circle key={labels[index]} cx={x(index)} cy={y(value)} r="2.5" fill={entry.color}>
                    <title>{`${labels[index]} · ${entry.name}: ${(value * 100).toFixed(1)}%`}</title>
                  </circle>
                ),
              )}
            </g>
          );
        })}
        {labels.map((label, index) =>
          index % Math.ceil(labels.length / 6) === 0 ? (
            <text key={label} x={x(index)} y={HEIGHT - 6} textAnchor="middle" fontSize="10" fill="#64748b">
              {label.slice(5)}
            </text>
          ) : null,
        )}
      </svg>
      <Legend series={series} />
    </figure>
  );
}

function Legend({ series }: { series: { name: string; color: string }[] }) {
  return (
    <figcaption className="mt-2 flex flex-wrap gap-4 text-xs text-slate-600">
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
