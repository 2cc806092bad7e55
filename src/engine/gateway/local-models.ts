/**
 * The chat models installed in the models folder, as the gateway sees them: manifests of family 'gguf' and
 * task 'chat', read through the folder's one reader (models/folder.ts), each naming its `.gguf` file inside
 * its folder. A broken manifest or file is that model's fault, named; the other models keep working.
 */
import type { ModelManifest } from '../../shared/models/catalog';
import type { ModelsFolder } from '../models/folder';

export interface InstalledChatModel {
  manifest: ModelManifest;
  /** Absolute real path of the .gguf file (a regular file inside the model's folder). */
  file: string;
}

/** The installed GGUF chat models' manifests, by id (broken ones are left out). */
export async function listChatModels(models: ModelsFolder): Promise<ModelManifest[]> {
  return (await models.list('chat')).map((m) => m.manifest);
}

/** One installed chat model by id with its checked file, or null; throws ModelFileError naming a broken one. */
export async function findChatModel(models: ModelsFolder, id: string): Promise<InstalledChatModel | null> {
  const m = await models.find(id, 'chat');
  return m ? { manifest: m.manifest, file: await models.file(m, 'model') } : null;
}
