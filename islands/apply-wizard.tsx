/** Island: the application wizard on /careers/{publicId}/apply (views/pages/public/apply.ejs). */
import './apply-wizard/apply-wizard.css';
import { mountIsland } from './components/mount.js';
import { ApplyWizard } from './apply-wizard/ApplyWizard.js';

mountIsland('apply-wizard', ApplyWizard);
