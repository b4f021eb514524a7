/**
 * Runs before every npm script that runs TypeScript: Node runs our `.ts` sources by type
 * stripping, which an older Node refuses with ERR_UNKNOWN_FILE_EXTENSION, a message that names
 * neither the cause nor the fix. CommonJS and old syntax on purpose: it must itself run on the
 * old Node it turns away. It is also the project's `preinstall`, so `npm ci` on an old Node
 * ends with this advice rather than only npm's EBADENGINE range: npm runs a root preinstall once
 * the dependencies are in node_modules, so .npmrc sets engine-strict=false (strict, npm would
 * stop before any script and say only the range).
 */
'use strict';

/**
 * The Node versions the app and its dependencies all accept, as package.json's `engines` and
 * the lockfile's root write it. 22.20: the lockfile's highest minimum (undici, a production
 * dependency, wants 22.19 and nock 22.20; type stripping needs 22.18). 23 and 25: vitest's own
 * `engines` refuses those odd lines.
 */
const NODE_RANGE = '^22.20.0 || ^24.0.0 || >=26.0.0';

/** Each accepted line as [major, lowest minor, whether later majors are accepted too]. */
const ACCEPTED = [
  [22, 20, false],
  [24, 0, false],
  [26, 0, true],
];

/** Whether a Node version (`process.versions.node`, with or without a leading v) can run the app. */
function nodeCanRun(version) {
  const parts = String(version).replace(/^v/, '').split('.');
  const major = Number(parts[0]);
  const minor = Number(parts[1]);
  if (!Number.isInteger(major) || !Number.isInteger(minor)) return false;
  return ACCEPTED.some((a) => (major === a[0] && minor >= a[1]) || (a[2] && major > a[0]));
}

/** npm's own install scripts: the person typed `npm ci` or `npm install`, not a script. */
const INSTALL_EVENTS = ['preinstall', 'install', 'postinstall'];

/**
 * The npm command a person typed, from npm's own note of the script it runs (and, for an
 * install script, of the command: `ci` or `install`).
 */
function typedCommand(lifecycleEvent, npmCommand) {
  if (INSTALL_EVENTS.indexOf(lifecycleEvent) !== -1) return `npm ${npmCommand || 'ci'}`;
  if (!lifecycleEvent) return 'npm start';
  if (lifecycleEvent === 'start' || lifecycleEvent === 'test') return `npm ${lifecycleEvent}`;
  return `npm run ${lifecycleEvent}`;
}

/**
 * What to tell a person whose Node cannot run the app, or undefined when it can. `where` names
 * the command they ran and the platform, so the advice can be pasted as it is.
 */
function nodeVersionProblem(version, where) {
  if (nodeCanRun(version)) return undefined;
  const w = where || {};
  const command = typedCommand(w.lifecycleEvent, w.npmCommand);
  const installing = INSTALL_EVENTS.indexOf(w.lifecycleEvent) !== -1;
  // Every npm command needs the new Node, the install first: `npx -p node@24` lasts one command.
  const once = installing
    ? [
        `  - just this once, from npm:      npx -y -p node@24 -- ${command}`,
        '    then every npm command the same way, e.g. npx -y -p node@24 -- npm run sandbox',
      ]
    : [
        '  - just this once, from npm:      npx -y -p node@24 -- npm ci',
        `                                   npx -y -p node@24 -- ${command}`,
      ];
  const platform = `${w.platform === 'win32' ? 'win' : w.platform || 'linux'}-${w.arch || 'x64'}`;
  const home = '~/.cache/servicedesk-slack/node24';
  return [
    `servicedesk-slack needs Node.js 22.20 or newer, but not 23 or 25 (24 LTS recommended).`,
    `This is Node.js ${String(version).replace(/^v/, '')}${w.execPath ? ` (${w.execPath})` : ''}.`,
    '',
    'Get Node 24 in one of these ways, then run the command again:',
    '  - with nvm, which reads .nvmrc:  nvm install && nvm use',
    ...once,
    '  - from npm, as .ci/run does:',
    `      npm install --prefix ${home} node-${platform}@24`,
    `      export PATH=${home}/node_modules/node-${platform}/bin:$PATH`,
    '  - from your system package manager, or https://nodejs.org/en/download',
  ].join('\n');
}

module.exports = { NODE_RANGE, nodeCanRun, nodeVersionProblem };

if (require.main === module) {
  const problem = nodeVersionProblem(process.versions.node, {
    lifecycleEvent: process.env.npm_lifecycle_event,
    npmCommand: process.env.npm_command,
    execPath: process.execPath,
    platform: process.platform,
    arch: process.arch,
  });
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
