import { z } from 'zod';

export const themeSchema = z.enum(['system', 'light', 'dark']);
export const regionSchema = z.enum(['us', 'eu', 'local']);
export type Theme = z.infer<typeof themeSchema>;
export type Region = z.infer<typeof regionSchema>;

export const regionLabels: Record<Region, string> = { us: 'US', eu: 'EU', local: 'Local' };

/**
 * Everything the user can change in Settings. The same schema is stored by
 * electron-store in Electron and by a JSON file in the data folder in host mode.
 * Every field has a default, so an old or partial file always parses.
 */
const fields = {
  theme: themeSchema,
  region: regionSchema,
};

export const settingsSchema = z.object({
  theme: fields.theme.default('system'),
  region: fields.region.default('local'),
});

export type Settings = z.infer<typeof settingsSchema>;

/**
 * A change from the renderer: any subset of fields, unknown fields rejected.
 * Built from the fields without their defaults, so an absent field stays absent
 * (zod's .partial() would fill defaults in and reset the user's other settings).
 */
export const settingsPatchSchema = z.object(fields).partial().strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const defaultSettings: Settings = settingsSchema.parse({});
