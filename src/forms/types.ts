/** The forms feature's shapes (spec 02 section 3); Node-free, so islands may import them. */
import type { RecordStatus } from '../shared/enums.js';

export const FIELD_TYPES = ['short_text', 'long_text', 'number', 'email', 'single_choice', 'checkbox', 'dropdown', 'file'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
/** The field types whose options count; every other type has none. */
export const CHOICE_FIELD_TYPES: readonly FieldType[] = ['single_choice', 'checkbox', 'dropdown'];

export interface FormField {
  name: string;
  label: string;
  field_type: FieldType;
  required: boolean;
  placeholder: string;
  help_text: string;
  options: string[];
  order: number;
  /** Bytes; null: the default limit (FORM_LIMITS.defaultFileBytes). */
  max_file_size: number | null;
  /** Lower-case, without dots; empty: any type but executables. */
  allowed_extensions: string[];
}

export interface FormSection {
  title: string;
  order: number;
  fields: FormField[];
}

/** A form as HR sees it. */
export interface Form {
  id: number;
  public_id: string;
  title: string;
  description: string;
  success_message: string;
  inactive_notice: string;
  status: RecordStatus;
  api_enabled: boolean;
  api_url: string | null;
  api_secret: string | null;
  /** {external_key: field_name} */
  api_mapping: Record<string, string>;
  sections: FormSection[];
  sections_count: number;
  accepting_submissions: boolean;
  created_at: string;
  updated_at: string;
}

/** A row of the Manage Forms list. */
export type FormSummary = Omit<Form, 'sections' | 'api_secret' | 'api_mapping' | 'description' | 'success_message' | 'inactive_notice'>;

/** A form as the public sees it: never the API settings. */
export interface PublicForm {
  public_id: string;
  title: string;
  description: string;
  success_message: string;
  inactive_notice: string;
  accepting_submissions: boolean;
  sections: FormSection[];
}

export type EntryValue = string | number | string[] | null;

export interface EntryFile {
  id: number;
  field_name: string;
  name: string;
}

export interface Entry {
  id: number;
  created_at: string;
  /** A few key values (the first fields that hold one), for the entries table. */
  preview: Record<string, string>;
  data: Record<string, EntryValue>;
  files: EntryFile[];
}
