import { describe, expect, it } from 'vitest';
import { marksProduction, serviceCommand, verbOf } from '../../src/programs/index.js';

describe('verbOf: a subcommand word as a service verb', () => {
  it.for([
    ['delete', 'destroys'],
    ['rm', 'destroys'],
    ['terminate', 'destroys'],
    ['service-instance-delete', 'destroys'],
    ['delete-bucket', 'destroys'],
    ['bucket-delete', 'destroys'],
    ['DeleteInstance', 'destroys'],
    ['TerminateInstances', 'destroys'],
    ['permanent-delete', 'destroys'],
    ['schedule-deletion', 'destroys'],
    ['api:core:messages:remove', 'destroys'],
    ['apps:destroy', 'destroys'],
    ['deletetable', 'destroys'],
    ['flush', 'destroys'],
    ['publish', 'publishes'],
    ['full-release', 'publishes'],
    ['hex.publish', 'publishes'],
    ['deploy', 'deploys'],
    ['gh-deploy', 'deploys'],
  ] as const)('%s %s', ([word, act]) => {
    expect(verbOf(word)?.act).toBe(act);
  });
  it.for([
    'list',
    'describe',
    'deleted',
    'releases',
    'release-notes',
    'publishLocal',
    'removal',
    'dropdown',
    'get',
    'show',
  ])('not %s', (word) => {
    expect(verbOf(word)).toBeUndefined();
  });
});

describe('marksProduction', () => {
  it.for([
    '--prod',
    '--production',
    '--prod=true',
    'production',
    'acme-prod',
    'prod-env',
    '--env=production',
    'acme_production',
  ])('%s', (word) => {
    expect(marksProduction(word)).toBe(true);
  });
  it.for([
    '--prod=false',
    'preprod',
    'nonprod',
    'staging',
    '--env=staging',
    'product',
    'products',
    '--production-like',
  ])('not %s', (word) => {
    expect(marksProduction(word)).toBe(false);
  });
});

describe('serviceCommand: what a tool with no entry does, by its words', () => {
  it.for([
    ['databases delete prod-db', 'destroys'],
    ['instance server terminate 11111111-1111-1111-1111-111111111111 zone=fr-par-1', 'destroys'],
    ['--region eu-west-1 clusters destroy main', 'destroys'],
    ['--endpoint https://api.acme.io secrets wipe', 'destroys'],
    ['kms keys schedule-deletion key-1', 'destroys'],
    ['storage delete-bucket uploads', 'destroys'],
    ['cache flush --region eu-west-1', 'destroys'],
    ['job stop -purge api', 'destroys'],
    ['delete project --project acme', 'destroys'],
    ['zone remove 7c9e6679-7425-40de-944b-e07fc1f0eb1d', 'destroys'],
    ['publish', 'publishes'],
    ['pub publish --force', 'publishes'],
    ['deploy --env production', 'deploys'],
    ['deploy prod-env', 'deploys'],
  ] as const)('%s', ([line, act]) => {
    expect(serviceCommand(line.split(' '))?.act).toBe(act);
  });
  it.for([
    'list',
    'delete-cache',
    'delete api',
    'toolchain remove nightly',
    'plugin remove ruby',
    'reset',
    'prune web --docker',
    'cache flush',
    'clusters describe main --region eu-west-1',
    'ls --sort release',
    'sync --no-delete --region eu-west-1',
    'deploy',
    'deploy --env staging',
    'publish --dry-run',
    'note add delete the bucket',
    './scripts/x delete cluster',
  ])('not %s', (line) => {
    expect(serviceCommand(line.split(' '))).toBeUndefined();
  });
});
