/** Step 1, Basic Info: names, email, dial code + phone digits, resume (spec 01 section 5). */
import {
  EMAIL_MAX,
  NAME_MAX,
  PHONE_DIGITS,
  RESUME_EXTENSIONS,
  shapeEmail,
  shapeName,
  shapePhone,
} from '../../src/shared/application-rules.js';
import { DIAL_CODES } from '../../src/shared/dial-codes.js';
import { ErrorText, RequiredMark, TextField, controlProps, describedBy } from './fields.js';
import { INTERNATIONAL_PHONE_DIGITS, PHONE_RULE_MESSAGES, type PhoneRule } from '../../src/shared/phone-rule-names.js';
import { errorId, fieldId, formatBytes, type Errors, type FormState, type ResumeFile } from './state.js';

export const RESUME_LABEL = 'Resume (PDF/DOC/DOCX, under 10 MB)';
const ACCEPT = RESUME_EXTENSIONS.map((e) => `.${e}`).join(',');

interface Props {
  /** PHONE_RULE: the help under the phone input says what is asked. */
  phoneRule?: PhoneRule;
  form: FormState;
  errors: Errors;
  update: (patch: Partial<FormState>, keys: string[]) => void;
  resume: ResumeFile | null;
  onResume: (file: File | null) => void;
  restored: boolean;
}

export function BasicStep({ form, errors, update, resume, onResume, restored, phoneRule = 'ten-digits' }: Props) {
  const phoneHelp = `${fieldId('phone')}-help`;
  const resumeHelp = `${fieldId('resume')}-help`;
  return (
    <div className="step-fields">
      <div className="field-row">
        <TextField
          fieldKey="first_name"
          label="First name"
          required
          value={form.first_name}
          onChange={(v) => update({ first_name: shapeName(v) }, ['first_name'])}
          error={errors.first_name}
          maxLength={NAME_MAX}
          autoComplete="given-name"
        />
        <TextField
          fieldKey="last_name"
          label="Last name"
          value={form.last_name}
          onChange={(v) => update({ last_name: shapeName(v) }, ['last_name'])}
          error={errors.last_name}
          maxLength={NAME_MAX}
          autoComplete="family-name"
        />
      </div>
      <TextField
        fieldKey="email"
        label="Email"
        type="email"
        required
        value={form.email}
        onChange={(v) => update({ email: shapeEmail(v) }, ['email'])}
        error={errors.email}
        maxLength={EMAIL_MAX}
        autoComplete="email"
        inputMode="email"
      />
      <div className="phone-row">
        <div className="field">
          <label htmlFor="f-phone_code">Country code</label>
          <select
            id="f-phone_code"
            value={form.phone_country}
            autoComplete="tel-country-code"
            onChange={(e) => update({ phone_country: e.target.value }, ['phone'])}
          >
            {DIAL_CODES.map((d) => (
              <option key={d.iso} value={d.iso}>
                {d.country} ({d.code})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={fieldId('phone')}>
            Phone number
            <RequiredMark />
          </label>
          <input
            {...controlProps('phone', errors.phone, phoneHelp)}
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            aria-required="true"
            value={form.phone}
            onChange={(e) =>
              update({ phone: shapePhone(e.target.value, phoneRule === 'international' ? INTERNATIONAL_PHONE_DIGITS : PHONE_DIGITS) }, [
                'phone',
              ])
            }
          />
          <p className="help-text" id={phoneHelp}>
            {phoneRule === 'international' ? PHONE_RULE_MESSAGES.help : `${PHONE_DIGITS} digits, without the country code.`}
          </p>
          <ErrorText fieldKey="phone" error={errors.phone} />
        </div>
      </div>
      <div className="field resume-field">
        <label htmlFor={fieldId('resume')}>
          {RESUME_LABEL}
          <RequiredMark />
        </label>
        {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: screen readers announce it on file inputs; `required` would add the browser's own message */}
        <input
          id={fieldId('resume')}
          type="file"
          accept={ACCEPT}
          aria-required="true"
          aria-invalid={errors.resume ? true : undefined}
          aria-describedby={describedBy(resumeHelp, errors.resume && errorId('resume'))}
          onChange={(e) => onResume(e.target.files?.[0] ?? null)}
        />
        <p className="help-text" id={resumeHelp}>
          {resume ? (
            <>
              Selected: <strong>{resume.name}</strong> ({formatBytes(resume.size)})
            </>
          ) : restored ? (
            'Your answers were restored, but files cannot be kept: please choose your resume again.'
          ) : (
            'Choose a PDF, DOC or DOCX file of up to 10 MB.'
          )}
        </p>
        <ErrorText fieldKey="resume" error={errors.resume} />
      </div>
    </div>
  );
}
