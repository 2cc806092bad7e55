/**
 * Drop anywhere on the window: an overlay says what will happen while files
 * are dragged over, the drop is collected (folders walked) and queued. Also
 * hosts the hidden file picker behind every "Add files" button.
 */
import { useEffect, useRef, useState } from 'react';
import { Icon } from '../../components/Icon';
import { useApp } from '../../stores/app';
import { acceptAttribute, collectDrop, sortFiles } from '../../lib/collect';
import { useIntake } from '../../stores/intake';

let pickerInput: HTMLInputElement | null = null;

/** Opens the system file picker; chosen files join the queue. */
export function openFilePicker(): void {
  pickerInput?.click();
}

function hasFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes('Files');
}

export function DropOverlay() {
  const [over, setOver] = useState<number | null>(null);
  const depth = useRef(0);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    pickerInput = input.current;
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth.current++;
      setOver(e.dataTransfer?.items.length ?? 0);
    };
    const overFn = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(null);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e) || !e.dataTransfer) return;
      e.preventDefault();
      depth.current = 0;
      setOver(null);
      const collecting = collectDrop(e.dataTransfer);
      const app = useApp.getState();
      if (app.screen !== 'library' && app.screen !== 'transcript' && app.screen !== 'subtitles') app.setScreen('library');
      void collecting.then((c) => useIntake.getState().add(c));
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', overFn);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      pickerInput = null;
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', overFn);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);

  return (
    <>
      <input
        ref={input}
        type="file"
        multiple
        accept={acceptAttribute}
        hidden
        data-testid="file-picker"
        aria-label="Add files"
        onChange={(e) => {
          const files = Array.from(e.currentTarget.files ?? []);
          e.currentTarget.value = '';
          if (files.length) useIntake.getState().add(sortFiles(files));
        }}
      />
      {over !== null && (
        <div className="drop-overlay" aria-hidden="true">
          <div className="drop-overlay__card">
            <div className="drop-overlay__icon">
              <Icon name="upload" size={32} />
            </div>
            <p className="drop-overlay__title">{over > 1 ? `Drop ${over} items to transcribe` : 'Drop to transcribe'}</p>
            <p className="drop-overlay__text">
              Audio and video files are added to the queue; folders are searched for them. Anything else is listed as skipped, with the reason.
            </p>
          </div>
        </div>
      )}
    </>
  );
}
