/** A small set of stroke icons (24×24 grid), drawn inline so the CSP stays strict. */
const paths = {
  library: 'M4 5h5v14H4zM10 5h4v14h-4zM15.5 5.5l3.8-1 3 13.6-3.8 1z',
  captions: 'M3 6h18v12H3zM7 11h4M13 11h4M7 14h7M16 14h1',
  chat: 'M4 5h16v10H9l-5 4z',
  settings: 'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM12 2v3M12 19v3M4.2 4.2l2.1 2.1M17.7 17.7l2.1 2.1M2 12h3M19 12h3M4.2 19.8l2.1-2.1M17.7 6.3l2.1-2.1',
  upload: 'M12 16V4M7 9l5-5 5 5M4 20h16',
  mic: 'M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3zM5 11a7 7 0 0 0 14 0M12 18v3',
  spark: 'M12 3l2 6 6 2-6 2-2 6-2-6-6-2 6-2z',
  dot: 'M12 11a1 1 0 1 0 0 2 1 1 0 0 0 0-2z',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, size = 18 }: { name: IconName; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={paths[name]} />
    </svg>
  );
}
