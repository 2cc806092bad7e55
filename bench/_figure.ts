/**
 * How a benchmark reports a figure that `npm run bench` compares with bench/baseline.json
 * (scripts/bench.mjs): one line, `BENCH-FIGURE {"name":…,"value":…,"unit":…,"better":…}`. The name is
 * unique within its bench file; `better` says which way is an improvement. A bench still prints its
 * own readable lines beside it. (Files starting with _ are helpers, not benchmarks.)
 */
export function figure(name: string, value: number, unit: string, better: 'lower' | 'higher' = 'lower'): void {
  if (!Number.isFinite(value)) return;
  console.log(`BENCH-FIGURE ${JSON.stringify({ name, value: Number(value.toPrecision(6)), unit, better })}`);
}
