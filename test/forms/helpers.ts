/** Shared set-up of the forms tests: a form with every field type in two sections, HR calls and submissions. */
import { pdfBytes } from '../fixtures/resumes.js';

/** A form payload as the builder sends it: every field type, two sections. */
export function everyFieldForm(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Volunteer Sign-up',
    description: 'Tell us about you.\nWe answer within a week.',
    success_message: 'Thank you, we will be in touch.',
    inactive_notice: '',
    status: 'ACTIVE',
    api_enabled: false,
    api_url: '',
    api_secret: '',
    api_mapping: {},
    sections: [
      {
        title: 'About you',
        order: 0,
        fields: [
          {
            name: 'full_name',
            label: 'Full name',
            field_type: 'short_text',
            required: true,
            placeholder: 'Jane Doe',
            help_text: '',
            options: [],
            order: 0,
          },
          {
            name: 'email',
            label: 'Email',
            field_type: 'email',
            required: true,
            placeholder: '',
            help_text: 'We write only about this.',
            options: [],
            order: 1,
          },
          { name: 'age', label: 'Age', field_type: 'number', required: false, placeholder: '', help_text: '', options: [], order: 2 },
          {
            name: 'bio',
            label: 'About you',
            field_type: 'long_text',
            required: false,
            placeholder: '',
            help_text: '',
            options: [],
            order: 3,
          },
        ],
      },
      {
        title: 'Availability',
        order: 1,
        fields: [
          {
            name: 'shift',
            label: 'Shift',
            field_type: 'single_choice',
            required: true,
            placeholder: '',
            help_text: '',
            options: ['Morning', 'Evening'],
            order: 0,
          },
          {
            name: 'days',
            label: 'Days',
            field_type: 'checkbox',
            required: false,
            placeholder: '',
            help_text: '',
            options: ['Mon', 'Tue', 'Wed'],
            order: 1,
          },
          {
            name: 'city',
            label: 'City',
            field_type: 'dropdown',
            required: false,
            placeholder: '',
            help_text: '',
            options: ['Pune', 'Lyon'],
            order: 2,
          },
          {
            name: 'cv',
            label: 'CV',
            field_type: 'file',
            required: true,
            placeholder: '',
            help_text: '',
            options: [],
            order: 3,
            max_file_size: 1024 * 1024,
            allowed_extensions: ['pdf', '.DOCX'],
          },
        ],
      },
    ],
    ...overrides,
  };
}

export const GOOD_VALUES = {
  full_name: 'Asha Rao',
  email: 'asha@example.com',
  age: '31',
  bio: 'Likes trees.',
  shift: 'Morning',
  days: ['Mon', 'Wed'],
  city: 'Pune',
};

/** A multipart submission: `values` as JSON plus file parts. */
export function submission(
  values: unknown,
  files: Record<string, { data: Buffer; name: string; type?: string }> = {},
  extra: Record<string, string> = {},
): FormData {
  const body = new FormData();
  body.append('values', typeof values === 'string' ? values : JSON.stringify(values));
  for (const [k, v] of Object.entries(extra)) body.append(k, v);
  for (const [field, f] of Object.entries(files))
    body.append(field, new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }), f.name);
  return body;
}

export const cvPdf = () => ({ data: pdfBytes(4000), name: 'my cv.pdf', type: 'application/pdf' });
