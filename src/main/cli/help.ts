/** The command line's help texts: `verbatim --help` and `verbatim COMMAND --help`. */
export const COMMON = `  --data DIR      the library's folder (default: VERBATIM_DATA, else the one \`npm run serve\` uses, else the desktop app's)
  -h, --help      this help`;

export const HELP: Record<string, string> = {
  '': `Usage: verbatim COMMAND [options]

Your transcripts from a terminal, on the same library as the app (it may be running).

Commands:
  transcribe FILE|FOLDER...   transcribe files into the library, and write them as files too
  search QUERY                find what was said, with the recording and the moment
  export ID|--all             write transcripts as SRT, VTT, TXT, Markdown, JSON or Word
  models list|download|remove the local speech and chat models
  mcp                         an MCP server over stdio, for AI assistants

Run verbatim COMMAND --help for a command's options.
${COMMON}
`,
  transcribe: `Usage: verbatim transcribe FILE|FOLDER... [options]

Transcribes each audio or video file (a folder: the media files in it) as if it were dropped on
the app's window: the transcript lands in the library. Progress goes to stderr. The exit status is
0 when every file was transcribed, 1 when any failed.

Options:
  --model ID          the speech model (see: verbatim models list); default: the app's setting
  --language L        the language code, e.g. en_us; default: the app's setting
  --speakers N|auto   label who said what: the number of speakers (1-10), or auto
  --format F          also write each transcript as F: srt, vtt, txt, md, json or docx (repeat or comma-separate for several)
  --out DIR           where --format files go (default: the current folder)
${COMMON}
`,
  search: `Usage: verbatim search QUERY [options]

Searches every transcript. Each hit: the recording, the moment (mm:ss) and the sentence.

Options:
  --said-by NAME   only what this person said (a remembered voice or a speaker's name)
  --limit N        at most N hits (default 20, at most 200)
  --json           one JSON array on stdout
${COMMON}
`,
  export: `Usage: verbatim export ID... --format F --out DIR
       verbatim export --all --format F --out DIR

Writes transcripts as they are in the library (edits, corrections and speaker names included).

Options:
  --format F   srt, vtt, txt, md (Markdown with front matter), json or docx
  --out DIR    the folder to write into (made if missing)
  --all        every finished transcript
${COMMON}
`,
  models: `Usage: verbatim models list
       verbatim models download ID
       verbatim models remove ID

The local models the app and the command line share (the app's Settings → Models).
${COMMON}
`,
  mcp: `Usage: verbatim mcp [--allow-write] [--data DIR]

Runs a Model Context Protocol server over stdio, so an AI assistant (Claude, Cursor, any MCP
client) can search and quote your transcripts. Read-only unless started with --allow-write, which
adds transcribe_file and add_vocabulary.
${COMMON}
`,
};
