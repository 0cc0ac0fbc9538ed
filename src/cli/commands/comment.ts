import { httpUrl, setting, wholeNumber } from '../settings.js';
import { common, lazy, withCommon, type CommandWiring } from './wiring.js';

const commentCommand = lazy(() => import('../comment.js'), 'commentCommand');

export const comment: CommandWiring = {
  name: 'comment',
  examples: ['GITHUB_TOKEN=... docsync comment --config config --pr 12 --repository acme/docs-config'],
  wire: (cmd, { setExit }) =>
    withCommon(cmd)
      .description('post the plan on a GitHub pull request as one sticky comment')
      .option('--pr <n>', 'pull request number (default: from GITHUB_EVENT_PATH)', wholeNumber(1))
      .option('--repository <owner/name>', 'repository (default: GITHUB_REPOSITORY)')
      .addOption(
        setting('--github-api-url <url>', 'GitHub API (GitHub Enterprise: https://HOST/api/v3)', {
          env: 'GITHUB_API_URL',
          parse: httpUrl,
          default: 'https://api.github.com',
        }),
      )
      .option(
        '--base-config <dir>',
        "the base branch's config: mark which changes the pull request introduces",
      )
      .option('--plan-file <file>', 'comment a saved JSON plan instead of planning')
      .option('--artifact-url <url>', 'where the full plan is, named when the comment is cut')
      .option('--skip-no-changes', 'post nothing when there are no changes')
      .action(async (o: Record<string, unknown>) =>
        setExit(
          await commentCommand({
            ...common(o),
            ...(o['pr'] ? { pr: Number(o['pr']) } : {}),
            ...(o['repository'] ? { repository: String(o['repository']) } : {}),
            githubApiUrl: String(o['githubApiUrl']),
            ...(o['baseConfig'] ? { baseConfig: String(o['baseConfig']) } : {}),
            ...(o['planFile'] ? { planFile: String(o['planFile']) } : {}),
            ...(o['artifactUrl'] ? { artifactUrl: String(o['artifactUrl']) } : {}),
            skipNoChanges: Boolean(o['skipNoChanges']),
          }),
        ),
      ),
};
