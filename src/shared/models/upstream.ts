/**
 * What upstream says of each downloadable model, with where it says it:
 * URL, archive bytes, SHA-256, the published checksum list, top folder,
 * inner files with sizes and the bytes the kept files take unpacked. Pure
 * data; tests/unit/shared/models-upstream.test.ts holds the catalog to it.
 *
 * Source strings:
 * - `<owner>/<repo>@<commit>:<path>[#Lm-n]`: a file of a public repository at a commit (upstream's own scripts, workflows, docs).
 * - `https://…`: a page.
 * - `record:<id> …`: a third-party project's file that recorded the real download's bytes or SHA-256 (the id is the
 *   public code index's, found with find_string; read it with read_file). Not upstream's own word: a record stands
 *   for an exact figure only where two or more independent records agree, and says so.
 * - `unverified: …`: no source could be read for it; the figure is an estimate and says how it was made.
 *
 * Inner file sizes from a docs `ls -lh` listing are upper bounds: the listed figure plus half its last digit
 * (macOS `ls -h` rounds to nearest, GNU rounds up), in binary units. `exact: false` marks them.
 */

/** One file inside an archive (or the single downloaded file). */
export interface UpstreamFile {
  name: string;
  bytes: number;
  /** false: an upper bound from a listing (see the header). */
  exact: boolean;
  source: string;
}

export interface UpstreamFacts {
  /** The catalog id these facts are for. */
  id: string;
  url: string;
  urlSource: string;
  archiveBytes: number;
  /** false: upstream gives no byte count; the figure is approximate (within 10%). */
  archiveBytesExact: boolean;
  archiveBytesSource: string;
  /** The download's SHA-256 where recorded, else null (the published list covers it). */
  sha256: string | null;
  sha256Source: string | null;
  /** The SHA-256 list upstream publishes for this download, or null (Hugging Face LFS at a pinned revision, or no list). */
  checksums: string | null;
  checksumsSource: string;
  /** The archive's one top folder; null for a single file. */
  topFolder: string | null;
  topFolderSource: string | null;
  /** The files the catalog keeps (its `files`), with their sizes. */
  files: UpstreamFile[];
  /** Bytes the kept files take unpacked: the sum of `files`. */
  unpackedBytes: number;
}

const SO = 'k2-fsa/sherpa-onnx@634265c9b57642fdd158120148785c89aa281c4b';
const SD = 'k2-fsa/sherpa@6e00e3b0fc4aba9bc7c49366720e7c1f2e485f65';
const CHECKSUM_ACTION = 'thewh1teagle/checksum@95253f85718318e3df2632d2de33030fa5fe4cb9:index.ts#L178';

const RELEASES = 'https://github.com/k2-fsa/sherpa-onnx/releases/download';
const HF = 'https://huggingface.co';

/**
 * sherpa-onnx's daily checksum workflow writes `checksum.txt` into each
 * listed release tag (asr-models, speaker-recongition-models, …; not
 * speaker-segmentation-models), one line per asset: `<name>\t<sha256>` (the
 * action's v1: name first, a tab, lower-case hex), uploaded with --clobber.
 */
export const CHECKSUM_LIST_FORMAT = 'name<TAB>sha256 (thewh1teagle/checksum v1), one line per release asset';
const checksumList = (tag: string): string => `${RELEASES}/${tag}/checksum.txt`;
const CHECKSUM_SOURCE = `${SO}:.github/workflows/checksum.yaml (matrix.tag) + ${CHECKSUM_ACTION}`;
const ASR_LIST = checksumList('asr-models');
const SPEAKER_LIST = checksumList('speaker-recongition-models');
const NO_SEGMENTATION_LIST = `${SO}:.github/workflows/checksum.yaml (its tag matrix has no speaker-segmentation-models)`;
const HF_LFS = 'Hugging Face keeps each LFS file’s SHA-256 at the pinned revision in the URL';

const KIB = 1024;
const MIB = 1024 * 1024;
/** An `ls -lh` figure as an upper bound in bytes: value plus half its last digit, in binary units. */
function lsBound(figure: string): number {
  const m = /^(\d+(?:\.(\d))?)([KMG]?)$/.exec(figure);
  if (!m) throw new Error(`not an ls -h figure: ${figure}`);
  const half = m[2] === undefined ? 0.5 : 0.05;
  const unit = m[3] === 'K' ? KIB : m[3] === 'M' ? MIB : m[3] === 'G' ? MIB * 1024 : 1;
  return Math.ceil((Number(m[1]) + half) * unit);
}
const exact = (name: string, bytes: number, source: string): UpstreamFile => ({ name, bytes, exact: true, source });
const listed = (name: string, figure: string, source: string): UpstreamFile => ({ name, bytes: lsBound(figure), exact: false, source });

function facts(f: Omit<UpstreamFacts, 'unpackedBytes'>): UpstreamFacts {
  return { ...f, unpackedBytes: f.files.reduce((n, file) => n + file.bytes, 0) };
}

/** A single-file download: the file is all there is, unpacked bytes are its bytes. */
function single(f: Omit<UpstreamFacts, 'unpackedBytes' | 'topFolder' | 'topFolderSource' | 'files'>): UpstreamFacts {
  const name = decodeURIComponent(new URL(f.url).pathname.split('/').pop() ?? '');
  return facts({ ...f, topFolder: null, topFolderSource: null, files: [exact(name, f.archiveBytes, f.archiveBytesSource)] });
}

// Hugging Face mirrors of the same exports (csukuangfj/<archive name>), whose LFS sizes third parties recorded.
const HF_PARAKEET_V2 = 'record:68922689727 and record:67113395743 (csukuangfj/sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8@1ab93235 LFS sizes; agree)';
const HF_PARAKEET_V3 = 'record:68922689727 and record:67113395743 (csukuangfj/sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8@2bda32ec LFS sizes; agree)';
const HF_MOONSHINE_TINY = 'record:68922689727 and record:67113395743 (csukuangfj/sherpa-onnx-moonshine-tiny-en-int8@bf2b762c LFS sizes; agree)';
const HF_MOONSHINE_BASE = 'record:68922689727 and record:67113395743 (csukuangfj/sherpa-onnx-moonshine-base-en-int8@052b0798 LFS sizes; agree)';
const HF_WHISPER_TINY_EN = 'record:67113395743 (files of the archive as unpacked; the docs listing shows an older 105M decoder)';
const HF_WHISPER_BASE_EN = 'record:68922689727 (csukuangfj/sherpa-onnx-whisper-base.en@59eea950 LFS sizes)';
const HF_WHISPER_SMALL_EN = 'record:68922689727 (csukuangfj/sherpa-onnx-whisper-small.en@d9533f69 LFS sizes)';
const HF_WHISPER_BASE = 'record:69393448563 and record:55627542805 (csukuangfj/sherpa-onnx-whisper-base LFS sizes; agree)';
const HF_WHISPER_TURBO = 'record:68922689727 and record:67113395743 (csukuangfj/sherpa-onnx-whisper-turbo@2ca6ff69 LFS sizes; agree)';
const HF_WHISPER_DISTIL_SMALL = 'record:61382150269 and record:70227164246 (csukuangfj/sherpa-onnx-whisper-distil-small.en LFS sizes; agree)';
const STREAMING_DOCS = `${SD}:docs/source/onnx/pretrained_models/online-transducer/zipformer-transducer-models.rst`;
const OFFLINE_ZIPFORMER_DOCS = `${SD}:docs/source/onnx/pretrained_models/offline-transducer/zipformer-transducer-models.rst`;
const WHISPER_WORKFLOW = `${SO}:.github/workflows/export-whisper-to-onnx.yaml#L80 (src=sherpa-onnx-whisper-<model>; tar cvjf $src.tar.bz2 $src)`;

export const UPSTREAM: readonly UpstreamFacts[] = [
  facts({
    id: 'parakeet-tdt-0.6b-v2',
    url: `${RELEASES}/asr-models/sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8.tar.bz2`,
    urlSource: `${SD}:docs/source/onnx/pretrained_models/offline-transducer/nemo/parakeet-tdt-0.6b-v2.rst`,
    archiveBytes: 482_468_385,
    archiveBytesExact: true,
    archiveBytesSource: 'record:67113395743, record:55319968525, record:70185655165, record:71162676841 (agree)',
    sha256: '157c157bc51155e03e37d2466522a3a737dd9c72bb25f36eb18912964161e1ad',
    sha256Source: 'record:55319968525, record:70185655165, record:71162676841, record:66729569421 (agree)',
    checksums: ASR_LIST,
    checksumsSource: CHECKSUM_SOURCE,
    topFolder: 'sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8',
    topFolderSource: `${SO}:.github/workflows/export-nemo-parakeet-tdt-0.6b-v2.yaml#L100-L112 (Collect files (int8))`,
    files: [
      exact('encoder.int8.onnx', 652_184_296, HF_PARAKEET_V2),
      exact('decoder.int8.onnx', 7_257_753, HF_PARAKEET_V2),
      exact('joiner.int8.onnx', 1_739_080, HF_PARAKEET_V2),
      exact('tokens.txt', 9_384, HF_PARAKEET_V2),
    ],
  }),
  facts({
    id: 'parakeet-tdt-0.6b-v3',
    url: `${RELEASES}/asr-models/sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8.tar.bz2`,
    urlSource: `${SD}:docs/source/onnx/pretrained_models/offline-transducer/nemo/parakeet-tdt-0.6b-v3.rst`,
    archiveBytes: 487_170_055,
    archiveBytesExact: true,
    archiveBytesSource: 'record:60440004131, record:71162676841, record:62465695263 (agree)',
    sha256: '5793d0fd397c5778d2cf2126994d58e9d56b1be7c04d13c7a15bb1b4eafb16bf',
    sha256Source: 'record:60440004131 (read from the release checksum.txt, 2026-09-05) and record:71162676841 (agree)',
    checksums: ASR_LIST,
    checksumsSource: CHECKSUM_SOURCE,
    topFolder: 'sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8',
    topFolderSource: `${SO}:.github/workflows/export-nemo-parakeet-tdt-0.6b-v2.yaml#L26,L100-L112 (version v3)`,
    files: [
      exact('encoder.int8.onnx', 652_184_281, HF_PARAKEET_V3),
      exact('decoder.int8.onnx', 11_845_275, HF_PARAKEET_V3),
      exact('joiner.int8.onnx', 6_355_277, HF_PARAKEET_V3),
      exact('tokens.txt', 93_939, HF_PARAKEET_V3),
    ],
  }),
  facts({
    id: 'zipformer-small-en',
    url: `${RELEASES}/asr-models/sherpa-onnx-zipformer-small-en-2023-06-26.tar.bz2`,
    urlSource: OFFLINE_ZIPFORMER_DOCS,
    archiveBytes: 112_232_184,
    archiveBytesExact: true,
    archiveBytesSource: 'record:59754170488',
    sha256: null,
    sha256Source: 'record:59754170488 gives c8bff1091c26c49731cddbcd60ef18061142ea11523df1b73bf1b14451b9c15e (one record: left to the list)',
    checksums: ASR_LIST,
    checksumsSource: CHECKSUM_SOURCE,
    topFolder: 'sherpa-onnx-zipformer-small-en-2023-06-26',
    topFolderSource: OFFLINE_ZIPFORMER_DOCS,
    files: [
      listed('encoder-epoch-99-avg-1.int8.onnx', '25M', OFFLINE_ZIPFORMER_DOCS),
      listed('decoder-epoch-99-avg-1.onnx', '2.0M', OFFLINE_ZIPFORMER_DOCS),
      listed('joiner-epoch-99-avg-1.int8.onnx', '253K', OFFLINE_ZIPFORMER_DOCS),
      {
        name: 'tokens.txt',
        bytes: 8 * KIB,
        exact: false,
        source: 'unverified: not in the docs listing (*.onnx only); the LibriSpeech 500-piece tokens.txt of the other archives is 5,048 B, bounded at 8 KiB',
      },
    ],
  }),
  facts({
    id: 'moonshine-tiny-en',
    url: `${RELEASES}/asr-models/sherpa-onnx-moonshine-tiny-en-int8.tar.bz2`,
    urlSource: `${SD}:docs/source/onnx/moonshine/models.rst#L37`,
    archiveBytes: 107_600_538,
    archiveBytesExact: true,
    archiveBytesSource: 'record:67113395743',
    sha256: null,
    sha256Source: null,
    checksums: ASR_LIST,
    checksumsSource: CHECKSUM_SOURCE,
    topFolder: 'sherpa-onnx-moonshine-tiny-en-int8',
    topFolderSource: `${SD}:docs/source/onnx/moonshine/models.rst#L37-L46`,
    files: [
      exact('preprocess.onnx', 6_800_738, HF_MOONSHINE_TINY),
      exact('encode.int8.onnx', 18_249_187, HF_MOONSHINE_TINY),
      exact('uncached_decode.int8.onnx', 53_216_096, HF_MOONSHINE_TINY),
      exact('cached_decode.int8.onnx', 45_264_830, HF_MOONSHINE_TINY),
      exact('tokens.txt', 436_688, HF_MOONSHINE_TINY),
    ],
  }),
  facts({
    id: 'moonshine-base-en',
    url: `${RELEASES}/asr-models/sherpa-onnx-moonshine-base-en-int8.tar.bz2`,
    urlSource: `${SD}:docs/source/onnx/moonshine/models.rst#L121`,
    archiveBytes: 250_807_309,
    archiveBytesExact: true,
    archiveBytesSource: 'record:67113395743',
    sha256: null,
    sha256Source: null,
    checksums: ASR_LIST,
    checksumsSource: CHECKSUM_SOURCE,
    topFolder: 'sherpa-onnx-moonshine-base-en-int8',
    topFolderSource: `${SD}:docs/source/onnx/moonshine/models.rst#L121-L130`,
    files: [
      exact('preprocess.onnx', 14_077_290, HF_MOONSHINE_BASE),
      exact('encode.int8.onnx', 50_311_494, HF_MOONSHINE_BASE),
      exact('uncached_decode.int8.onnx', 122_120_451, HF_MOONSHINE_BASE),
      exact('cached_decode.int8.onnx', 99_983_837, HF_MOONSHINE_BASE),
      exact('tokens.txt', 436_688, HF_MOONSHINE_BASE),
    ],
  }),
  facts({
    id: 'moonshine-v2-tiny-en',
    url: `${RELEASES}/asr-models/sherpa-onnx-moonshine-tiny-en-quantized-2026-02-27.tar.bz2`,
    urlSource: `${SO}:scripts/moonshine/v2/run.sh#L46-L60 and ${SD}:docs/source/onnx/moonshine/generate_v2.py (get_url)`,
    archiveBytes: 29_858_559,
    archiveBytesExact: true,
    archiveBytesSource: 'record:68975382784, record:59840977109, record:70965473494, record:55735920500 (agree)',
    sha256: '9ec31b342d8fa3240c3b81b8f82e1cf7e3ac467c93ca5a999b741d5887164f8d',
    sha256Source: 'record:68975382784, record:70082471617, record:59840977109, record:60755513995 (agree)',
    checksums: ASR_LIST,
    checksumsSource: CHECKSUM_SOURCE,
    topFolder: 'sherpa-onnx-moonshine-tiny-en-quantized-2026-02-27',
    topFolderSource: `${SO}:scripts/moonshine/v2/run.sh#L46 and ${SO}:nodejs-addon-examples/test_asr_non_streaming_moonshine_v2.js#L14-L18`,
    files: [
      listed('encoder_model.ort', '13M', `${SD}:docs/source/onnx/moonshine/tpl/model_v2.rst#L81-L87`),
      listed('decoder_model_merged.ort', '30M', `${SD}:docs/source/onnx/moonshine/tpl/model_v2.rst#L81-L87`),
      listed('tokens.txt', '537K', `${SD}:docs/source/onnx/moonshine/tpl/model_v2.rst#L81-L87`),
    ],
  }),
  facts({
    id: 'moonshine-v2-base-en',
    url: `${RELEASES}/asr-models/sherpa-onnx-moonshine-base-en-quantized-2026-02-27.tar.bz2`,
    urlSource: `${SO}:scripts/moonshine/v2/run.sh#L46-L60 and ${SD}:docs/source/onnx/moonshine/generate_v2.py (get_url)`,
    archiveBytes: 111_266_225,
    archiveBytesExact: true,
    archiveBytesSource: 'record:55735920500; record:60333988314 says 111.3 MB (agree)',
    sha256: null,
    sha256Source: 'record:60333988314 gives 43232c1d13013d37317163baec3135bd771a186a4356f28c889bab453bb0e891 (one record: left to the list)',
    checksums: ASR_LIST,
    checksumsSource: CHECKSUM_SOURCE,
    topFolder: 'sherpa-onnx-moonshine-base-en-quantized-2026-02-27',
    topFolderSource: `${SO}:scripts/moonshine/v2/run.sh#L46`,
    files: [
      listed('encoder_model.ort', '30M', `${SD}:docs/source/onnx/moonshine/tpl/model_v2.rst#L109-L115`),
      listed('decoder_model_merged.ort', '105M', `${SD}:docs/source/onnx/moonshine/tpl/model_v2.rst#L109-L115`),
      listed('tokens.txt', '537K', `${SD}:docs/source/onnx/moonshine/tpl/model_v2.rst#L109-L115`),
    ],
  }),
  facts({
    id: 'whisper-tiny.en',
    url: `${RELEASES}/asr-models/sherpa-onnx-whisper-tiny.en.tar.bz2`,
    urlSource: WHISPER_WORKFLOW,
    archiveBytes: 118_071_777,
    archiveBytesExact: true,
    archiveBytesSource: 'record:67113395743 and record:54198941444 (agree)',
    sha256: null,
    sha256Source:
      'record:57135334204 gives 2bd6cf965c8bb3e068ef9fa2191387ee63a9dfa2a4e37582a8109641c20005dd (one record, and this asset was re-uploaded: left to the list)',
    checksums: ASR_LIST,
    checksumsSource: CHECKSUM_SOURCE,
    topFolder: 'sherpa-onnx-whisper-tiny.en',
    topFolderSource: WHISPER_WORKFLOW,
    files: [
      exact('tiny.en-encoder.int8.onnx', 12_937_772, HF_WHISPER_TINY_EN),
      exact('tiny.en-decoder.int8.onnx', 89_853_865, HF_WHISPER_TINY_EN),
      exact('tiny.en-tokens.txt', 835_554, HF_WHISPER_TINY_EN),
    ],
  }),
  facts({
    id: 'whisper-base.en',
    url: `${RELEASES}/asr-models/sherpa-onnx-whisper-base.en.tar.bz2`,
    urlSource: WHISPER_WORKFLOW,
    archiveBytes: 208_576_005,
    archiveBytesExact: true,
    archiveBytesSource: 'record:54198941444 and record:52230463503 (agree)',
    sha256: null,
    sha256Source: 'record:57135334204 gives 475bc7052ce299c007f6d5d5407ba8601f819a2867f6eecee510ed17df581542 (one record: left to the list)',
    checksums: ASR_LIST,
    checksumsSource: CHECKSUM_SOURCE,
    topFolder: 'sherpa-onnx-whisper-base.en',
    topFolderSource: WHISPER_WORKFLOW,
    files: [
      exact('base.en-encoder.int8.onnx', 29_120_534, HF_WHISPER_BASE_EN),
      exact('base.en-decoder.int8.onnx', 130_669_978, HF_WHISPER_BASE_EN),
      exact('base.en-tokens.txt', 835_554, HF_WHISPER_BASE_EN),
    ],
  }),
  facts({
    id: 'whisper-small.en',
    url: `${RELEASES}/asr-models/sherpa-onnx-whisper-small.en.tar.bz2`,
    urlSource: WHISPER_WORKFLOW,
    archiveBytes: 635_693_775,
    archiveBytesExact: true,
    archiveBytesSource: 'record:54198941444',
    sha256: null,
    sha256Source: 'record:57135334204 gives 0cdba2b8aaab69e04847f3427cc9709574112e67913a1a84b7fec3a8729faa9a (one record: left to the list)',
    checksums: ASR_LIST,
    checksumsSource: CHECKSUM_SOURCE,
    topFolder: 'sherpa-onnx-whisper-small.en',
    topFolderSource: WHISPER_WORKFLOW,
    files: [
      exact('small.en-encoder.int8.onnx', 112_442_483, HF_WHISPER_SMALL_EN),
      exact('small.en-decoder.int8.onnx', 262_223_042, HF_WHISPER_SMALL_EN),
      exact('small.en-tokens.txt', 835_554, HF_WHISPER_SMALL_EN),
    ],
  }),
  facts({
    id: 'whisper-base',
    url: `${RELEASES}/asr-models/sherpa-onnx-whisper-base.tar.bz2`,
    urlSource: WHISPER_WORKFLOW,
    archiveBytes: 207_557_382,
    archiveBytesExact: true,
    archiveBytesSource: 'record:57502580192, record:68410021557, record:70799864277, record:63223899137 (agree)',
    sha256: '911b2083efd7c0dca2ac3b358b75222660dc09fb716d64fbfc417ba6c99ff3de',
    sha256Source: 'record:57502580192, record:68410021557, record:71478363035, record:54777650375 (agree)',
    checksums: ASR_LIST,
    checksumsSource: CHECKSUM_SOURCE,
    topFolder: 'sherpa-onnx-whisper-base',
    topFolderSource: WHISPER_WORKFLOW,
    files: [
      exact('base-encoder.int8.onnx', 29_120_534, HF_WHISPER_BASE),
      exact('base-decoder.int8.onnx', 130_672_026, HF_WHISPER_BASE),
      exact('base-tokens.txt', 816_730, HF_WHISPER_BASE),
    ],
  }),
  facts({
    id: 'whisper-turbo',
    url: `${RELEASES}/asr-models/sherpa-onnx-whisper-turbo.tar.bz2`,
    urlSource: `${SO}:.github/workflows/export-whisper-to-onnx.yaml#L19 (model turbo; large models ship int8 only, #L117-L126)`,
    archiveBytes: 563_790_207,
    archiveBytesExact: true,
    archiveBytesSource: 'record:67113395743, record:54198941444, record:71452846446, record:57933796321 (agree)',
    sha256: 'b11acbbcd660b44a8e0df33724feb5aaa709cf65668f2823d59f656312544f22',
    sha256Source: 'record:71452846446 and record:57933796321 (agree)',
    checksums: ASR_LIST,
    checksumsSource: CHECKSUM_SOURCE,
    topFolder: 'sherpa-onnx-whisper-turbo',
    topFolderSource: WHISPER_WORKFLOW,
    files: [
      exact('turbo-encoder.int8.onnx', 674_716_297, HF_WHISPER_TURBO),
      exact('turbo-decoder.int8.onnx', 361_080_764, HF_WHISPER_TURBO),
      exact('turbo-tokens.txt', 816_730, HF_WHISPER_TURBO),
    ],
  }),
  facts({
    id: 'whisper-distil-small.en',
    url: `${RELEASES}/asr-models/sherpa-onnx-whisper-distil-small.en.tar.bz2`,
    urlSource: `${SO}:.github/workflows/export-whisper-to-onnx.yaml#L19,L57-L59`,
    archiveBytes: 453_710_017,
    archiveBytesExact: true,
    archiveBytesSource: 'record:52230463503',
    sha256: null,
    sha256Source: 'record:22725321268 gives 1483a4ddd62ea2e892a366262740f4dd5e24fc6effecbdf277c5b2d34600f7f1 (one project: left to the list)',
    checksums: ASR_LIST,
    checksumsSource: CHECKSUM_SOURCE,
    topFolder: 'sherpa-onnx-whisper-distil-small.en',
    topFolderSource: WHISPER_WORKFLOW,
    files: [
      exact('distil-small.en-encoder.int8.onnx', 102_961_431, HF_WHISPER_DISTIL_SMALL),
      exact('distil-small.en-decoder.int8.onnx', 195_079_097, HF_WHISPER_DISTIL_SMALL),
      exact('distil-small.en-tokens.txt', 835_554, HF_WHISPER_DISTIL_SMALL),
    ],
  }),
  facts({
    id: 'sense-voice-zh-en-ja-ko-yue',
    url: `${RELEASES}/asr-models/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-int8-2024-07-17.tar.bz2`,
    urlSource: `${SO}:.github/workflows/c-api.yaml#L383-L389`,
    archiveBytes: 163_002_883,
    archiveBytesExact: true,
    archiveBytesSource: 'record:57626961307 (the GitHub release asset 288366523) and record:58679055051 (agree)',
    sha256: null,
    sha256Source: 'record:57626961307 gives 7d1efa2138a65b0b488df37f8b89e3d91a60676e416f515b952358d83dfd347e (one record: left to the list)',
    checksums: ASR_LIST,
    checksumsSource: CHECKSUM_SOURCE,
    topFolder: 'sherpa-onnx-sense-voice-zh-en-ja-ko-yue-int8-2024-07-17',
    topFolderSource: `${SO}:nodejs-addon-examples/test_asr_non_streaming_sense_voice.js#L20-L24`,
    files: [
      exact(
        'model.int8.onnx',
        239_233_841,
        `record:67113395743 and record:54198941444 (csukuangfj/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17 LFS); ${SD}:docs/source/onnx/harmony-os/vad-asr.rst#L229 lists 228M (agree)`,
      ),
      exact('tokens.txt', 315_894, `record:67113395743; ${SD}:docs/source/onnx/harmony-os/vad-asr.rst#L230 lists 308K (agree)`),
    ],
  }),
  facts({
    id: 'streaming-zipformer-en',
    url: `${RELEASES}/asr-models/sherpa-onnx-streaming-zipformer-en-2023-06-26.tar.bz2`,
    urlSource: `${STREAMING_DOCS}#L793`,
    archiveBytes: 310_414_022,
    archiveBytesExact: true,
    archiveBytesSource: 'record:67113395743 and record:58679055051 (agree)',
    sha256: null,
    sha256Source: null,
    checksums: ASR_LIST,
    checksumsSource: CHECKSUM_SOURCE,
    topFolder: 'sherpa-onnx-streaming-zipformer-en-2023-06-26',
    topFolderSource: `${STREAMING_DOCS}#L833-L837`,
    files: [
      exact('encoder-epoch-99-avg-1-chunk-16-left-128.int8.onnx', 70_108_816, `record:67113395743; ${STREAMING_DOCS}#L806 lists 68M (agree)`),
      listed('decoder-epoch-99-avg-1-chunk-16-left-128.onnx', '2.0M', `${STREAMING_DOCS}#L805`),
      exact('joiner-epoch-99-avg-1-chunk-16-left-128.int8.onnx', 259_416, `record:67113395743; ${STREAMING_DOCS}#L809 lists 254K (agree)`),
      exact('tokens.txt', 5_048, `record:67113395743; ${STREAMING_DOCS}#L813 lists 5.0K (agree)`),
    ],
  }),
  facts({
    id: 'streaming-zipformer-en-20m',
    url: `${RELEASES}/asr-models/sherpa-onnx-streaming-zipformer-en-20M-2023-02-17.tar.bz2`,
    urlSource: `${STREAMING_DOCS}#L1707`,
    archiveBytes: 127_887_156,
    archiveBytesExact: true,
    archiveBytesSource: 'record:61509135915, record:60100280324, record:69782014747 (agree)',
    sha256: '9c559283e8498d3fe95913c79ca1cb454bb26281ac2b102b41306c7d752765d9',
    sha256Source: 'record:59266183821, record:71022924132, record:61509135915, record:70127342728 (agree)',
    checksums: ASR_LIST,
    checksumsSource: CHECKSUM_SOURCE,
    topFolder: 'sherpa-onnx-streaming-zipformer-en-20M-2023-02-17',
    topFolderSource: `${STREAMING_DOCS}#L1707-L1760`,
    files: [
      exact('encoder-epoch-99-avg-1.int8.onnx', 42_845_182, `record:67113395743 and record:69782014747; ${STREAMING_DOCS} lists 41M (agree)`),
      exact('decoder-epoch-99-avg-1.int8.onnx', 539_499, `record:67113395743; ${STREAMING_DOCS} lists 527K (agree)`),
      exact('joiner-epoch-99-avg-1.int8.onnx', 259_572, `record:67113395743; ${STREAMING_DOCS} lists 253K (agree)`),
      exact('tokens.txt', 5_048, 'record:67113395743'),
    ],
  }),
  facts({
    id: 'pyannote-segmentation-3.0',
    url: `${RELEASES}/speaker-segmentation-models/sherpa-onnx-pyannote-segmentation-3-0.tar.bz2`,
    urlSource: `${SD}:docs/source/onnx/speaker-diarization/models.rst`,
    archiveBytes: 6_958_444,
    archiveBytesExact: true,
    archiveBytesSource: 'record:70957621217 and record:54822463425 (agree)',
    sha256: null,
    sha256Source:
      'records 71649293040, 70080187230, 70957621217 agree on 24615ee884c897d9d2ba09bb4d30da6bb1b15e685065962db5b02e76e4996488; no list covers this tag, so a pinned value could never be refreshed: left to the first download',
    checksums: null,
    checksumsSource: NO_SEGMENTATION_LIST,
    topFolder: 'sherpa-onnx-pyannote-segmentation-3-0',
    topFolderSource: `${SO}:.github/workflows/export-pyannote-segmentation-to-onnx.yaml#L37-L51`,
    files: [exact('model.onnx', 5_992_913, 'record:71467562141 and record:54570772564 (csukuangfj/sherpa-onnx-pyannote-segmentation-3-0 LFS; agree)')],
  }),
  facts({
    id: 'pyannote-segmentation-3.0-int8',
    url: `${RELEASES}/speaker-segmentation-models/sherpa-onnx-pyannote-segmentation-3-0.tar.bz2`,
    urlSource: `${SD}:docs/source/onnx/speaker-diarization/models.rst`,
    archiveBytes: 6_958_444,
    archiveBytesExact: true,
    archiveBytesSource: 'record:70957621217 and record:54822463425 (agree)',
    sha256: null,
    sha256Source: 'as pyannote-segmentation-3.0 (the same archive)',
    checksums: null,
    checksumsSource: NO_SEGMENTATION_LIST,
    topFolder: 'sherpa-onnx-pyannote-segmentation-3-0',
    topFolderSource: `${SO}:.github/workflows/export-pyannote-segmentation-to-onnx.yaml#L37-L51`,
    files: [listed('model.int8.onnx', '1.5M', `${SD}:docs/source/onnx/speaker-diarization/models.rst#L49`)],
  }),
  single({
    id: '3dspeaker-campplus-en',
    url: `${RELEASES}/speaker-recongition-models/3dspeaker_speech_campplus_sv_en_voxceleb_16k.onnx`,
    urlSource: `${SO}:.github/workflows/export-3dspeaker-to-onnx.yaml#L41-L45 and scripts/3dspeaker/run.sh`,
    archiveBytes: 29_596_978,
    archiveBytesExact: true,
    archiveBytesSource: 'record:71088102010 and record:66491153199 (agree)',
    sha256: '357a834f702b80161e5b981182c038e18553c1f2ca752ed6cec2052365d4129b',
    sha256Source: 'record:70136221373, record:71088102010, record:68793648040, record:66939738534 (agree)',
    checksums: SPEAKER_LIST,
    checksumsSource: CHECKSUM_SOURCE,
  }),
  single({
    id: '3dspeaker-campplus-zh-en',
    url: `${RELEASES}/speaker-recongition-models/3dspeaker_speech_campplus_sv_zh_en_16k-common_advanced.onnx`,
    urlSource: `${SO}:.github/workflows/export-3dspeaker-to-onnx.yaml#L41-L45 and scripts/3dspeaker/run.sh`,
    archiveBytes: 28_281_164,
    archiveBytesExact: true,
    archiveBytesSource: 'record:61401023998, record:54822463425, record:59713062885 (agree)',
    sha256: 'aa3cfc16963a10586a9393f5035d6d6b57e98d358b347f80c2a30bf4f00ceba2',
    sha256Source: 'record:69400062629 ("matches upstream checksum.txt"), record:61401023998, record:54822463425 (agree)',
    checksums: SPEAKER_LIST,
    checksumsSource: CHECKSUM_SOURCE,
  }),
  single({
    id: 'wespeaker-campplus-en',
    url: `${RELEASES}/speaker-recongition-models/wespeaker_en_voxceleb_CAM++.onnx`,
    urlSource: `${SO}:scripts/wespeaker/run.sh and .github/workflows/export-wespeaker-to-onnx.yaml (tag speaker-recongition-models)`,
    archiveBytes: 29_292_684,
    archiveBytesExact: true,
    archiveBytesSource: 'record:63394146447, record:61152918836, record:70152488591 (agree)',
    sha256: 'c46fad10b5f81e1aa4a60c162714208577093655076c5450f8c469e522ec54ef',
    sha256Source: 'record:68449946667, record:54508253578, record:63394146447, record:61152918836 (agree)',
    checksums: SPEAKER_LIST,
    checksumsSource: CHECKSUM_SOURCE,
  }),
  single({
    id: 'nemo-titanet-small',
    url: `${RELEASES}/speaker-recongition-models/nemo_en_titanet_small.onnx`,
    urlSource: `${SO}:.github/workflows/export-nemo-speaker-verification-to-onnx.yaml (tag speaker-recongition-models) and ${SD}:docs/source/onnx/nemo/index.rst#L26`,
    archiveBytes: 40_257_283,
    archiveBytesExact: true,
    archiveBytesSource: 'record:63156777007 ("the release asset\'s exact size"), record:63394146447, record:71467562141 (agree)',
    sha256: 'ad4a1802485d8b34c722d2a9d04249662f2ece5d28a7a039063ca22f515a789e',
    sha256Source: 'record:63156777007, record:63394146447, record:71467562141 (agree)',
    checksums: SPEAKER_LIST,
    checksumsSource: CHECKSUM_SOURCE,
  }),
  single({
    id: 'nemo-titanet-large',
    url: `${RELEASES}/speaker-recongition-models/nemo_en_titanet_large.onnx`,
    urlSource: `${SO}:.github/workflows/export-nemo-speaker-verification-to-onnx.yaml (tag speaker-recongition-models) and ${SD}:docs/source/onnx/nemo/index.rst#L27`,
    archiveBytes: 101_405_493,
    archiveBytesExact: true,
    archiveBytesSource: 'record:54570772564; records 66155500408 (97 MB) and 71523144934 (101 MB) agree within rounding',
    sha256: null,
    sha256Source: null,
    checksums: SPEAKER_LIST,
    checksumsSource: CHECKSUM_SOURCE,
  }),
  single({
    id: 'qwen2.5-0.5b-instruct',
    url: `${HF}/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/9217f5db79a29953eb74d5343926648285ec7e67/qwen2.5-0.5b-instruct-q4_k_m.gguf`,
    urlSource: 'record:70122170144, record:70318294055, record:71516227580, record:55119653000 (the same pinned revision)',
    archiveBytes: 491_400_032,
    archiveBytesExact: true,
    archiveBytesSource: 'record:57161166782, record:70318294055, record:71516227580 (agree)',
    sha256: '74a4da8c9fdbcd15bd1f6d01d621410d31c6fc00986f5eb687824e7b93d7a9db',
    sha256Source: `${HF_LFS}; record:71516227580 ("publisher LFS SHA-256"), record:70318294055, record:57161166782 (agree)`,
    checksums: null,
    checksumsSource: HF_LFS,
  }),
  single({
    id: 'qwen2.5-1.5b-instruct',
    url: `${HF}/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/91cad51170dc346986eccefdc2dd33a9da36ead9/qwen2.5-1.5b-instruct-q4_k_m.gguf`,
    urlSource: 'record:68283855032, record:71516227580, record:70495921337, record:70122767387 (the same pinned revision)',
    archiveBytes: 1_117_320_736,
    archiveBytesExact: true,
    archiveBytesSource: 'record:71516227580, record:70495921337, record:70122767387 (agree)',
    sha256: '6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e',
    sha256Source: `${HF_LFS}; record:71516227580, record:70495921337, record:70122767387 (agree)`,
    checksums: null,
    checksumsSource: HF_LFS,
  }),
  single({
    id: 'qwen2.5-3b-instruct',
    url: `${HF}/Qwen/Qwen2.5-3B-Instruct-GGUF/resolve/7dabda4d13d513e3e842b20f0d435c732f172cbe/qwen2.5-3b-instruct-q4_k_m.gguf`,
    urlSource: 'record:69850662450, record:71125364944, record:67463626470, record:69055945172 (the same pinned revision)',
    archiveBytes: 2_104_932_768,
    archiveBytesExact: true,
    archiveBytesSource: 'record:69850662450, record:71125364944, record:69055945172 (agree)',
    sha256: '626b4a6678b86442240e33df819e00132d3ba7dddfe1cdc4fbb18e0a9615c62d',
    sha256Source: `${HF_LFS}; record:69850662450, record:70461494289, record:69055945172 (agree)`,
    checksums: null,
    checksumsSource: HF_LFS,
  }),
  single({
    id: 'llama-3.2-1b-instruct',
    url: `${HF}/bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/067b946cf014b7c697f3654f621d577a3e3afd1c/Llama-3.2-1B-Instruct-Q4_K_M.gguf`,
    urlSource: 'record:69486148326, record:69180226868, record:57370389013, record:71516227580, record:70961367493 (the same pinned revision)',
    archiveBytes: 807_694_464,
    archiveBytesExact: true,
    archiveBytesSource: 'record:57370389013 and record:71516227580 (agree)',
    sha256: '6f85a640a97cf2bf5b8e764087b1e83da0fdb51d7c9fab7d0fece9385611df83',
    sha256Source: `${HF_LFS}; record:69486148326, record:69180226868, record:71516227580 (agree)`,
    checksums: null,
    checksumsSource: HF_LFS,
  }),
  single({
    id: 'llama-3.2-3b-instruct',
    url: `${HF}/bartowski/Llama-3.2-3B-Instruct-GGUF/resolve/5ab33fa94d1d04e903623ae72c95d1696f09f9e8/Llama-3.2-3B-Instruct-Q4_K_M.gguf`,
    // The revision independent projects pin (c346bfc2…, pinned before, appears in one project only, for the same file).
    urlSource:
      'record:58522637351, record:71256765081, record:55778785176, record:61498373645, record:66590821900, record:70606963771, record:69255678970, record:538227827 (the same pinned revision, independent projects)',
    archiveBytes: 2_019_377_696,
    archiveBytesExact: true,
    archiveBytesSource: 'record:58522637351 (expectedBytes at this revision); record:61142845841 and record:60945187777 give the same size at c346bfc2…',
    sha256: '6c1a2b41161032677be168d354123594c0e6e67d2b9227c84f296ad037c728ff',
    sha256Source: `${HF_LFS}; record:58522637351 and record:71256765081 at this revision (record:61142845841 and record:60945187777 give the same at c346bfc2…)`,
    checksums: null,
    checksumsSource: HF_LFS,
  }),
  single({
    id: 'phi-3.5-mini-instruct',
    url: `${HF}/bartowski/Phi-3.5-mini-instruct-GGUF/resolve/6d70da17e749a471ccb62ade694486011a75cda3/Phi-3.5-mini-instruct-Q4_K_M.gguf`,
    urlSource: 'record:70407852316, record:71087103898, record:70961367493, record:70853682286 (the same pinned revision)',
    archiveBytes: 2_393_232_672,
    archiveBytesExact: true,
    archiveBytesSource: 'record:70853682286; record:70407852316 says 2393.2 MB (agree)',
    sha256: 'e4165e3a71af97f1b4820da61079826d8752a2088e313af0c7d346796c38eff5',
    sha256Source: `${HF_LFS}; record:70407852316, record:71087103898, record:70853682286 (agree)`,
    checksums: null,
    checksumsSource: HF_LFS,
  }),
];

const byId = new Map(UPSTREAM.map((f) => [f.id, f]));

/** The upstream facts for a catalog id, or undefined. */
export function upstreamFacts(id: string): UpstreamFacts | undefined {
  return byId.get(id);
}
