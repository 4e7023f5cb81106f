import type { Command } from 'commander';
import inquirer from 'inquirer';
import { hashPassword, passwordProblem } from '../auth/passwords.js';
import { findUserByUsername, insertUser, normaliseUsername, USERNAME_PATTERN } from '../auth/users.repo.js';
import { CliError, readStdin, withDb } from './context.js';

/** A new password from stdin (--password-stdin) or a hidden prompt asked twice. */
export async function askPassword(fromStdin: boolean): Promise<string> {
  let password: string;
  if (fromStdin) {
    password = await readStdin();
  } else {
    if (!process.stdin.isTTY) throw new CliError('No terminal to ask for the password: pass it on standard input with --password-stdin.', 2);
    const answers = await inquirer.prompt<{ password: string; confirm: string }>([
      { type: 'password', name: 'password', message: 'Password:', validate: (v: string) => passwordProblem(v) ?? true },
      { type: 'password', name: 'confirm', message: 'Repeat password:' },
    ]);
    if (answers.password !== answers.confirm) throw new CliError('The passwords do not match.');
    password = answers.password;
  }
  const problem = passwordProblem(password);
  if (problem) throw new CliError(problem);
  return password;
}

export function checkUsername(username: string): string {
  const name = normaliseUsername(username);
  if (!USERNAME_PATTERN.test(name)) throw new CliError('Username must be 3 to 150 characters: letters, digits and . _ @ + -', 2);
  return name;
}

export function registerUsers(program: Command): void {
  const user = program.command('user').description('HR users');
  user
    .command('create')
    .description('create an HR user; asks for the password with a hidden prompt')
    .requiredOption('--username <name>', 'sign-in name')
    .option('--password-stdin', 'read the password from standard input (for scripts)')
    .action(async (opts: { username: string; passwordStdin?: boolean }) => {
      const username = checkUsername(opts.username);
      await withDb(async (db) => {
        await db.migrate.latest();
        if (await findUserByUsername(db, username)) throw new CliError(`User "${username}" already exists.`);
        const password = await askPassword(!!opts.passwordStdin);
        await insertUser(db, username, await hashPassword(password));
        console.log(`Created HR user "${username}". Sign in at /hrviewlogin.`);
      });
    });
}
