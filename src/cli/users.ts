/**
 * careers-admin user create | list | passwd | disable | enable: HR accounts (no self sign-up,
 * DESIGN.md section 3). Changing a password or disabling a user signs out all of their sessions.
 * `create` makes an admin unless `--role recruiter` is given (the first user must be able to
 * manage the others from /hr/users).
 */
import type { Command } from 'commander';
import type { Db } from '../db/knex.js';
import { emailError, storedEmail } from '../shared/application-rules.js';
import type { users } from '../users/index.js';
import { USERNAME_PATTERN, USER_EMAIL_MAX_LENGTH, USER_MESSAGES, normaliseUsername, passwordProblem } from '../users/schema.js';
import { USER_ROLES, type UserRole } from '../users/types.js';
import { CliError, readStdin, withDb } from './context.js';
import { printable, table } from './print.js';

/** Tries at typing the same password twice before the prompt gives up. */
const PASSWORD_TRIES = 3;

/**
 * A new password from stdin (--password-stdin) or a hidden prompt asked twice; when the two differ
 * it says so and asks for both again, up to PASSWORD_TRIES times.
 */
async function askPassword(fromStdin: boolean): Promise<string> {
  let password: string;
  if (fromStdin) {
    password = await readStdin();
  } else {
    if (!process.stdin.isTTY)
      throw new CliError('No terminal to ask for the password: pass it on standard input with --password-stdin.', 2);
    for (let attempt = 1; ; attempt++) {
      const { default: inquirer } = await import('inquirer');
      const answers = await inquirer.prompt<{ password: string; confirm: string }>([
        { type: 'password', name: 'password', message: 'Password:', validate: (v: string) => passwordProblem(v) ?? true },
        { type: 'password', name: 'confirm', message: 'Repeat password:' },
      ]);
      if (answers.password === answers.confirm) {
        password = answers.password;
        break;
      }
      if (attempt === PASSWORD_TRIES) throw new CliError(`The passwords do not match (${PASSWORD_TRIES} tries); nothing was changed.`);
      console.error('The passwords do not match. Type the password again, twice.');
    }
  }
  const problem = passwordProblem(password);
  if (problem) throw new CliError(problem);
  return password;
}

function checkUsername(username: string): string {
  const name = normaliseUsername(username);
  if (!USERNAME_PATTERN.test(name)) throw new CliError(USER_MESSAGES.username, 2);
  return name;
}

function checkEmail(raw: string): string {
  const email = storedEmail(raw);
  if (!email || email.length > USER_EMAIL_MAX_LENGTH || emailError(email) !== null)
    throw new CliError(`--email: ${USER_MESSAGES.email} (got "${printable(raw)}")`, 2);
  return email;
}

function checkRole(role: string): UserRole {
  if (!USER_ROLES.includes(role as UserRole)) throw new CliError(`--role: ${USER_MESSAGES.role} (got "${role}")`, 2);
  return role as UserRole;
}

/** The users service, loaded when a command runs (see context.ts): the service alone, not the feature's routes and sign-in libraries. */
const usersService = () => import('../users/service.js');

async function requireSchema(db: Db): Promise<void> {
  const { hasSchema } = await import('../db/migrations.js');
  if (!(await hasSchema(db, 'hr_users'))) throw new CliError('The database has no tables yet: run "careers-admin migrate" first.');
}

async function requireUser(db: Db, username: string): Promise<users.HrUser> {
  await requireSchema(db);
  const user = await (await usersService()).findUser(db, username);
  if (!user) throw new CliError(`No HR user "${username}". See "careers-admin user list".`);
  return user;
}

const minute = (d: Date | null) => (d ? d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : 'never');
const sessions = (n: number) => (n === 1 ? '1 session' : `${n} sessions`);

export function registerUsers(program: Command): void {
  const user = program.command('user').alias('users').description('HR users: create, list, change passwords, disable');

  user
    .command('create')
    .description('create an HR user (an admin unless --role says otherwise); asks for the password with a hidden prompt')
    .requiredOption('--username <name>', 'sign-in name')
    .option('--role <role>', USER_ROLES.join(', '), 'admin')
    .option('--email <address>', 'email address (company sign-in matches it)')
    .option('--password-stdin', 'read the password from standard input (for scripts)')
    .action(async (opts: { username: string; role: string; email?: string; passwordStdin?: boolean }) => {
      const username = checkUsername(opts.username);
      const role = checkRole(opts.role);
      const email = opts.email === undefined ? null : checkEmail(opts.email);
      await withDb(async (db, config) => {
        const [{ migrateLatest }, service] = await Promise.all([import('../db/migrations.js'), usersService()]);
        await migrateLatest(db);
        if (await service.findUser(db, username)) throw new CliError(`User "${username}" already exists.`);
        if (email !== null && (await service.findUserByEmail(db, email)))
          throw new CliError(`--email: ${USER_MESSAGES.emailTaken} (${email})`);
        const password = await askPassword(!!opts.passwordStdin);
        await service.createUser(db, username, password, role, email);
        console.log(`Created HR user "${username}"${role === 'admin' ? '' : ` (${role})`}. Sign in at ${service.signInUrl(config)}`);
      });
    });

  user
    .command('list')
    .description('list HR users: username, active or disabled, created, last sign-in, role, email')
    .action(async () => {
      await withDb(async (db) => {
        await requireSchema(db);
        const all = await (await usersService()).listUsers(db);
        if (!all.length) {
          console.log('No HR users yet. Create one with: careers-admin user create --username NAME');
          return;
        }
        console.log(
          table([
            ['USERNAME', 'STATUS', 'CREATED', 'LAST LOGIN', 'ROLE', 'EMAIL'],
            ...all.map((u) => [
              printable(u.username),
              u.is_active ? 'active' : 'disabled',
              minute(u.created_at),
              minute(u.last_login_at),
              u.role,
              u.email ?? '-',
            ]),
          ]),
        );
      });
    });

  user
    .command('passwd')
    .description("set a new password (hidden prompt) and sign out the user's sessions")
    .requiredOption('--username <name>', 'sign-in name')
    .option('--password-stdin', 'read the password from standard input (for scripts)')
    .action(async (opts: { username: string; passwordStdin?: boolean }) => {
      const username = checkUsername(opts.username);
      await withDb(async (db) => {
        const found = await requireUser(db, username);
        const password = await askPassword(!!opts.passwordStdin);
        const n = await (await usersService()).changePassword(db, found, password);
        console.log(`Password changed for "${username}"; ${sessions(n)} signed out.`);
      });
    });

  user
    .command('disable')
    .description('stop a user from signing in and sign out their sessions')
    .requiredOption('--username <name>', 'sign-in name')
    .action(async (opts: { username: string }) => {
      const username = checkUsername(opts.username);
      await withDb(async (db) => {
        const found = await requireUser(db, username);
        const n = await (await usersService()).disableUser(db, found);
        console.log(`${found.is_active ? 'Disabled' : 'Already disabled:'} "${username}"; ${sessions(n)} signed out.`);
      });
    });

  user
    .command('enable')
    .description('let a disabled user sign in again')
    .requiredOption('--username <name>', 'sign-in name')
    .action(async (opts: { username: string }) => {
      const username = checkUsername(opts.username);
      await withDb(async (db) => {
        const found = await requireUser(db, username);
        await (await usersService()).enableUser(db, found);
        console.log(found.is_active ? `"${username}" is already active.` : `Enabled "${username}".`);
      });
    });
}
