/**
 * Exposes window.verbatim: invoke and on, only for names in the contract.
 * No Node or Electron object ever reaches the page.
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { binaryMessages, isChannel, isEventName, type RawBridge, type Reply } from '../shared/ipc';

const bridge: RawBridge = {
  pathForFile(file) {
    const path = webUtils.getPathForFile(file);
    // Main plays only files the user picked from where they are: tell it this one was (a path typed over IPC is not).
    if (path) ipcRenderer.send('verbatim:picked', path);
    return path;
  },
  sendBinary(data) {
    // Audio frames (ipc.ts binaryMessages): an ArrayBuffer, cloned into main as bytes; never JSON.
    if (data instanceof ArrayBuffer && data.byteLength <= binaryMessages['captions.audio'].maxBytes) ipcRenderer.send('verbatim:binary', data);
  },
  async invoke(channel, input) {
    if (!isChannel(channel)) return { ok: false, error: { code: 'bad_request', message: `Unknown channel: ${String(channel)}` } } satisfies Reply;
    return (await ipcRenderer.invoke('verbatim:invoke', channel, input)) as Reply;
  },
  on(event, listener) {
    if (!isEventName(event)) throw new Error(`Unknown event: ${String(event)}`);
    const wrapped = (_e: IpcRendererEvent, name: string, payload: unknown) => {
      if (name === event) listener(payload);
    };
    ipcRenderer.on('verbatim:event', wrapped);
    return () => {
      ipcRenderer.removeListener('verbatim:event', wrapped);
    };
  },
};

contextBridge.exposeInMainWorld('verbatim', bridge);
