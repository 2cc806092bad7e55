/** Vite's `?worker&url` import: the built worklet module's URL. */
declare module '*?worker&url' {
  const url: string;
  export default url;
}
