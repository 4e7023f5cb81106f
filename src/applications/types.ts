/** The applications feature's shapes; Node-free, so islands may import them. */
import type { PublicJobSummary, PublicQuestion } from '../jobs/types.js';

/** A question as the wizard shows it: text and help text are sanitised rich text. */
export type WizardQuestion = PublicQuestion;

/** The apply wizard island's props (`wizardJobProps`): the job's public fields and questions, without the long job texts. */
export interface WizardJob extends PublicJobSummary {
  questions: WizardQuestion[];
}
