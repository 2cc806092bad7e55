/** The Chromium every e2e test and UI benchmark drives: Debian's, never a downloaded one, with the same flags everywhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  // Chromium 156 loads its omnibox popup as a WebUI page (chrome://omnibox-popup.top-chrome) in a
  // renderer of its own for every new window, that is for every Playwright context: ~1.2 s of CPU
  // right after newContext/newPage, on a 2-core machine beside the app it is measuring or testing
  // (its trace shows it; issue 29). Browser chrome, not the app's: a user's window has long done it.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];

/** Chromium's fake microphone playing `wav` (granted without a prompt), for live captions. */
export function fakeMicrophoneArgs(wav: string): string[] {
  return [
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-audio-capture=${wav}`,
    '--autoplay-policy=no-user-gesture-required',
  ];
}
