#!/usr/bin/env node
/** careers-admin: the admin CLI (commander). One file per command group in src/cli/. */
import fs from 'node:fs';
import { Command, CommanderError } from 'commander';
import { registerAlerts } from '../src/cli/alerts.js';
import { registerApplicants } from '../src/cli/applicants.js';
import { registerConfig } from '../src/cli/config.js';
import { CliError } from '../src/cli/context.js';
import { registerDoctor } from '../src/cli/doctor.js';
import { registerExport } from '../src/cli/export.js';
import { printableLines } from '../src/cli/print.js';
import { registerFiles } from '../src/cli/files.js';
import { registerForms } from '../src/cli/forms.js';
import { registerImports } from '../src/cli/imports.js';
import { registerJobs } from '../src/cli/jobs.js';
import { registerMigrate } from '../src/cli/migrate.js';
import { registerPosts } from '../src/cli/posts.js';
import { registerUsers } from '../src/cli/users.js';

// package.json is one folder up both from bin/ (tsx) and from dist/ (the bundle).
const { version } = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command();
program
  .name('careers-admin')
  .version(version)
  .description('Administer the Careers site: database, HR users, jobs, applicants, files, outbound posts, exports, health checks')
  .showHelpAfterError()
  // commander's own messages echo what was typed ("unknown option '...'"): escaped like ours.
  .configureOutput({ writeErr: (text) => process.stderr.write(printableLines(text)) })
  .exitOverride();

registerMigrate(program);
registerJobs(program);
registerUsers(program);
registerFiles(program);
registerPosts(program);
registerApplicants(program);
registerForms(program);
registerAlerts(program);
registerImports(program);
registerExport(program);
registerDoctor(program);
registerConfig(program);

program.parseAsync(process.argv).then(
  () => process.exit(0),
  (err: unknown) => {
    // commander has printed its message (unknown command, missing option...): bad usage is exit 2.
    if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 2);
    if (err instanceof CliError) {
      console.error(`Error: ${printableLines(err.message)}`);
      process.exit(err.exitCode);
    }
    if ((err as Error)?.name === 'ExitPromptError') {
      console.error('Cancelled.');
      process.exit(130);
    }
    console.error(`Error: ${printableLines(err instanceof Error ? err.message : String(err))}`);
    process.exit(1);
  },
);
