import { describe, expect, it } from 'vitest';
import { infraDestroy } from '../../src/rules/infra-destroy.js';
import { evaluateExample, runRuleTests } from '../rule-tester.js';

runRuleTests(infraDestroy, {
  valid: [
    // looking at a cluster
    'kubectl get pods -n prod',
    'kubectl describe deployment api',
    'kubectl logs -f deploy/api --context prod',
    'kubectl diff -f k8s/',
    'kubectl apply --dry-run=client -f k8s/',
    'kubectl delete pod web-1 --dry-run=server',
    'kubectl rollout status deploy/api',
    'kubectl config delete-context old-cluster',
    'kubectl -n delete get pods',
    // planning, not applying
    'terraform plan',
    'terraform plan -destroy',
    'terraform init -upgrade',
    'terraform fmt -recursive',
    'terraform validate',
    'terraform output -json',
    'tofu show',
    'pulumi preview',
    'pulumi stack ls',
    'helm template api ./chart',
    'helm lint ./chart',
    'helm list -A',
    'helm upgrade api ./chart --dry-run',
    'helm repo update',
    'cdk synth',
    'cdk diff',
    // local containers and build caches
    'docker rm -f web',
    'docker compose down',
    'docker image prune -f',
    'docker builder prune',
    'docker ps -a',
    'docker run --rm -v "$PWD:/src" node:20 npm test',
    // cloud CLIs reading
    'aws s3 ls s3://assets',
    'aws s3 cp dist/ s3://assets/ --recursive',
    'aws s3 sync dist/ s3://assets/',
    'aws ec2 describe-instances --region eu-west-1',
    'gcloud compute instances list',
    'az group list',
    'gh repo view',
    'gh release list',
    'gh cache delete --all',
    'gh api repos/o/r/pulls',
    'fly deploy',
    'heroku logs --tail',
    'heroku run rm -rf tmp/cache',
    'firebase deploy --only hosting',
    // a deploy that is not to production: a preview or staging, production stays as it was
    'vercel deploy',
    'vercel',
    'netlify deploy --dir dist',
    'fly deploy --app acme-staging',
    'railway up --environment staging',
    'vercel deploy --prod --dry-run',
    'vercel env pull --environment=production',
    'fly logs --app prod',
    // service tools guard has no entry for: reads, and verbs that destroy nothing
    'mytool list',
    'mytool delete-cache',
    'acmectl --region eu-west-1 clusters describe main',
    'mytool --profile prod buckets list',
    'acmectl clusters list --sort release',
    'mytool sync --no-delete --region eu-west-1',
    // a destroying verb with no sign of a service: local tools' own things
    'pm2 delete api',
    'rustup toolchain remove nightly',
    'asdf plugin remove ruby',
    'nx reset',
    'turbo prune web --docker',
    'ollama rm llama3',
    'huggingface-cli delete-cache',
    'jupyter kernelspec remove old',
    'keytool -delete -alias old -keystore dev.jks',
    'mytool release-notes generate',
    // local clusters, known as such
    'kind delete cluster --name dev',
    'k3d cluster delete dev',
    'minikube delete --profile dev',
    // a script run by its file name: its text is what runs
    './scripts/db.sh drop database prod',
    'python manage.py shell',
    // the words as data
    "echo 'doctl databases delete prod'",
    "grep -rn 'service-instance-delete' docs/",
    "mytool note add 'delete the prod bucket'",
    // the same CLIs' deploys, reads and lists: near misses of their delete verbs
    'wrangler deploy',
    'wrangler d1 list',
    "wrangler d1 execute app-db --command 'SELECT 1'",
    'wrangler r2 bucket list',
    'glab repo view acme/app',
    'glab mr list',
    'doppler secrets download --no-file --format env-no-quotes',
    'doppler run -- npm test',
    'railway up',
    'railway logs',
    'render services list',
    'stripe customers list --limit 3',
    'stripe listen --forward-to localhost:3000/webhook',
    'vault kv get secret/app',
    'vault secrets list',
    'vault secrets enable -path=kv kv-v2',
    'neonctl branches list',
    'terraform providers lock',
    'docker rm -f $(docker create alpine)',
    'docker ps -aq',
    // another computer, looking only
    'ssh prod "tail -n 100 /var/log/nginx/error.log"',
    'ssh prod systemctl status nginx',
    'ssh deploy@10.0.0.5 "df -h && ls /srv/app"',
    // inside a container or pod, looking only
    'docker exec app npm test',
    "docker exec -it app sh -c 'ls -la /app && cat /app/package.json'",
    // HTTP requests that delete nothing, or delete on this machine
    'curl -s https://api.github.com/repos/acme/app',
    'curl -X POST https://api.example.com/v1/items -d @item.json',
    'curl -X DELETE http://localhost:3000/api/items/42',
    'http GET https://api.example.com/v1/items',
    'echo "curl -X DELETE https://api.example.com/x"',
    // the other computer's temp files
    'docker exec app rm -rf /tmp/build-cache',
    'ssh ci "rm -f /tmp/deploy.lock /var/tmp/upload-42.tar"',
    'kubectl exec web -- df -h',
    'rsync -av dist/ prod:/srv/app/',
    'rsync -av --delete dist/ build-copy/',
    // data, not commands
    'echo "kubectl delete pod web-1"',
    'git commit -m "terraform destroy the old stack"',
    'grep -rn "docker volume rm" docs',
    // a local rm is a file matter (fs.delete), not a deployed system
    'rm -rf node_modules',
    // cloud cmdlets that only look, make, or change this computer's sign-in
    'Get-AzResourceGroup -Name prod-rg',
    'Get-AzVM | Select-Object Name, PowerState',
    'Get-S3Bucket',
    'Get-EC2Instance -InstanceId i-0123',
    'New-AzResourceGroup -Name dev-rg -Location westeurope',
    'Clear-AzContext -Force',
    'Get-Help Remove-AzVM -Full',
    'Write-Host "Remove-AzResourceGroup -Name prod"',
    'Remove-Item -Recurse -Force .\\dist',
    // other kinds of step
    { step: { kind: 'write', path: 'infra/main.tf', content: 'resource "aws_s3_bucket" "b" {}' } },
    { step: { kind: 'read', path: 'k8s/deployment.yaml' } },
    { step: { kind: 'mcp', server: 'kubernetes', tool: 'pods_list', args: { namespace: 'prod' } } },
  ],
  invalid: [
    // cloud modules' PowerShell cmdlets that destroy, stop or publish
    'Remove-AzResourceGroup -Name prod-rg -Force',
    'Remove-AzVM -ResourceGroupName prod -Name web1 -Force',
    'Get-AzVM -ResourceGroupName prod | Remove-AzVM -Force',
    'Remove-S3Bucket -BucketName prod-data -DeleteBucketContent -Force',
    'Remove-EC2Instance -InstanceId i-0123456789 -Force',
    'Stop-EC2Instance -InstanceId i-0123 -Terminate',
    'Remove-AzSqlDatabase -ResourceGroupName rg -ServerName s -DatabaseName db',
    'Remove-AzureADUser -ObjectId x',
    'Remove-MgUser -UserId x',
    'Remove-GcsBucket -Name prod-assets',
    'pwsh -c "Remove-AzKeyVault -VaultName kv1 -Force"',
    // clusters
    'kubectl delete pod web-1 -n prod',
    'kubectl delete -f k8s/',
    'kubectl -n prod delete deployment api',
    'kubectl apply -f k8s/',
    'kubectl scale deploy/api --replicas=0',
    'kubectl rollout restart deploy/api',
    'kubectl drain node-1 --ignore-daemonsets',
    'kubectl delete pod web-1 --dry-run=none',
    'oc delete project staging',
    'helm uninstall api',
    'helm delete api -n prod',
    'helm upgrade --install api ./chart -f values.prod.yaml',
    'helm rollback api 3',
    // infrastructure as code
    'terraform apply',
    'terraform apply -auto-approve -target=aws_instance.web',
    'terraform destroy -auto-approve',
    'terraform -chdir=infra apply tfplan',
    'terraform state rm aws_s3_bucket.logs',
    'terraform workspace delete staging',
    'tofu destroy',
    'terragrunt run-all destroy',
    'pulumi up --yes',
    'pulumi destroy -s prod',
    'pulumi stack rm dev',
    'cdk deploy --all',
    'cdk destroy',
    'sam delete --stack-name api',
    'serverless remove --stage prod',
    // docker data
    'docker system prune -af --volumes',
    'docker system prune',
    'docker volume rm pgdata',
    'docker volume prune -f',
    'docker rm -v db',
    'docker compose down -v',
    'docker-compose down --volumes',
    'podman volume rm data',
    'docker stack rm web',
    // clouds
    'aws s3 rm s3://assets --recursive',
    'aws s3 rb s3://assets --force',
    'aws s3 sync dist/ s3://assets/ --delete',
    'aws ec2 terminate-instances --instance-ids i-0abc',
    'aws --profile prod rds delete-db-instance --db-instance-identifier main',
    'aws cloudformation delete-stack --stack-name api',
    'gcloud compute instances delete vm-1 --zone us-central1-a',
    'gcloud --project acme beta sql instances delete main',
    'gcloud storage rm -r gs://assets',
    'gsutil -m rm -r gs://assets',
    'gsutil rsync -d -r dist gs://assets',
    'az group delete --name rg-prod --yes',
    'az storage blob delete-batch --source web',
    'doctl compute droplet delete web-1',
    'eksctl delete cluster --name prod',
    // hosting and SaaS
    'gh repo delete acme/site --yes',
    'gh release delete v1.2.0',
    'gh api -X DELETE repos/acme/site/hooks/1',
    'vercel rm my-app --yes',
    'vercel env rm DATABASE_URL production',
    'fly apps destroy my-app',
    'flyctl volumes destroy vol_123',
    'heroku apps:destroy --app my-app --confirm my-app',
    'netlify sites:delete 1234',
    'firebase functions:delete sendMail',
    'supabase functions delete hello',
    'wrangler delete',
    'wrangler delete --name api-worker',
    'wrangler r2 bucket delete assets',
    'wrangler d1 delete app-db',
    'wrangler kv namespace delete --namespace-id abc',
    'glab repo delete acme/app --yes',
    'glab release delete v1.0.0',
    'doppler secrets delete STRIPE_KEY --yes',
    'doppler projects delete backend',
    'railway down',
    'railway delete',
    'render services delete srv-123',
    'stripe customers delete cus_123',
    'stripe products delete prod_123',
    'vault secrets disable secret/',
    'vault kv destroy -versions=3 secret/app',
    'vault kv metadata delete secret/app',
    'vault delete secret/app',
    'neonctl branches delete preview',
    'turso db destroy app',
    'pscale database delete app --force',
    'terraform force-unlock -force 1a2b3c',
    // every container here, other projects' too
    'docker rm -f $(docker ps -aq)',
    'docker container rm -f $(docker container ls -aq)',
    'podman rm -f `podman ps -aq`',
    // another computer
    'ssh prod "sudo systemctl stop nginx"',
    'ssh prod "rm -rf /var/www/html && systemctl restart nginx"',
    "ssh -t deploy@prod.example.com 'sudo reboot'",
    'ssh prod "echo maintenance > /var/www/html/index.html"',
    'ssh db1 "sudo apt-get remove -y postgresql"',
    "docker exec app sh -c 'rm -rf /var/lib/app/uploads'",
    // an API told to delete what its URL names
    'curl -X DELETE https://api.github.com/repos/acme/app -H "Authorization: token $GH_TOKEN"',
    'curl -XDELETE https://search.example.com:9200/logs-2026.11',
    'curl --request DELETE https://api.example.com/v1/projects/42',
    'http DELETE https://api.example.com/v1/projects/42',
    'Invoke-RestMethod -Method Delete -Uri https://api.example.com/v1/projects/42',
    // near misses of the temp folder: the folder itself, a way out of it, a glob, anything else named with it
    'ssh ci "rm -rf /tmp"',
    'ssh ci "rm -rf /tmp/../etc/nginx"',
    'ssh ci rm -rf /tmp//',
    'ssh ci "rm -rf /tmp/./"',
    'docker exec app rm -rf /tmp/*',
    'docker exec app rm -rf /tmp/cache /srv/data',
    "kubectl exec -n prod web -- sh -c 'rm -rf /data'",
    'docker compose exec web systemctl restart nginx',
    'rsync -av --delete dist/ prod:/srv/app/',
    // deploys to production (issue 26): every user gets the change at once
    'vercel --prod',
    'vercel deploy --prod --yes',
    'vercel ./dist --prod',
    'netlify deploy --prod --dir dist',
    'ntl deploy --prod',
    'fly deploy --app prod',
    'flyctl deploy -a acme-production --strategy immediate',
    'firebase deploy --only hosting --project acme-prod',
    'railway up --environment production',
    'wrangler deploy --env production',
    'eb deploy prod-env',
    // cloud CLIs known as such, with their verbs in any spelling
    'doctl databases delete 9cc10173-e9ea-4176-9dbc-a4cee4c4ff30 --force',
    'scw instance server terminate 11111111-1111-1111-1111-111111111111 zone=fr-par-1',
    'oci os bucket delete --bucket-name backups --empty --force',
    'ibmcloud resource service-instance-delete my-db -f --recursive',
    'ibmcloud cos bucket-delete --bucket assets --region us-south --force',
    'aliyun ecs DeleteInstance --InstanceId i-bp67acfmxazb4p --Force true',
    'tccli cvm TerminateInstances --InstanceIds \'["ins-r8hr2upy"]\'',
    'cbt -project my-proj -instance my-inst deletetable events',
    'databricks clusters permanent-delete --cluster-id 1234-567890-abc123',
    'twilio api:core:messages:remove --sid SM1234567890abcdef',
    'cf delete api -r -f',
    'eb terminate prod-env --force',
    'rclone purge remote:backups/2023',
    // service tools guard has no entry for: a destroying verb and a sign of a service
    'acmectl --region eu-west-1 clusters destroy main',
    'mytool --profile prod buckets purge assets',
    'acme-cli databases drop analytics --project acme-prod',
    'acme --endpoint https://api.acme.io secrets wipe',
    'acmecloud kms keys schedule-deletion key-1234 --pending-window-in-days 7',
    'acmecloud storage delete-bucket uploads',
    'acmecloud cache flush --region eu-west-1',
    'nomad job stop -purge api',
    'consul kv delete -recurse config/',
    'hostctl zone remove 7c9e6679-7425-40de-944b-e07fc1f0eb1d',
    'acmectl delete project --project acme',
    'acme deploy --env production',
    'npx acmecloud storage delete-bucket uploads',
    // through wrappers
    'sudo kubectl delete ns staging',
    'bash -c "terraform destroy -auto-approve"',
    'cd infra && terraform apply',
    'npx cdk destroy --force',
    'echo api | xargs helm uninstall',
    'kubectl get pods -o name | xargs kubectl delete',
  ],
});

describe('infra.destroy memory keys', () => {
  const keyOf = (command: string): string | undefined =>
    evaluateExample(command).findings.find((f) => f.ruleId === 'infra.destroy')?.memoryKey;

  it.for<readonly [string, string]>([
    // different targets never share a yes
    ['kubectl delete pod web-1', 'kubectl delete pod web-2'],
    ['kubectl delete pod web-1 -n dev', 'kubectl delete pod web-1 -n prod'],
    ['kubectl apply -f k8s/', 'kubectl delete -f k8s/'],
    ['terraform apply', 'cd other && terraform apply'],
    ['terraform apply -target=a.b', 'terraform apply -target=a.c'],
    ['ssh a "sudo reboot"', 'ssh b "sudo reboot"'],
    ['docker volume rm pgdata', 'docker volume rm redisdata'],
  ])('%s and %s are different targets', ([a, b]) => {
    expect(keyOf(a)).toBeDefined();
    expect(keyOf(b)).toBeDefined();
    expect(keyOf(a)).not.toBe(keyOf(b));
  });

  it.for<readonly [string, string]>([
    ['terraform destroy', 'terraform destroy -auto-approve'],
    ['pulumi up', 'pulumi up --yes --skip-preview'],
    ['kubectl delete pod web-1', 'sudo kubectl delete pod web-1'],
  ])('%s and %s are the same target', ([a, b]) => {
    expect(keyOf(a)).toBeDefined();
    expect(keyOf(a)).toBe(keyOf(b));
  });

  it('keeps key-shaped values out of the key', () => {
    const key = keyOf('aws s3 rm s3://b/x --sse-c-key AKIAIOSFODNN7EXAMPLE');
    expect(key).toBeDefined();
    expect(key).not.toContain('AKIAIOSFODNN7EXAMPLE');
  });

  it('names the target in the reason', () => {
    const finding = evaluateExample('kubectl delete pod web-1 -n prod').findings.find(
      (f) => f.ruleId === 'infra.destroy',
    );
    expect(finding?.reason).toContain('kubectl delete pod web-1');
  });
});

describe.skip('infra.destroy rows blocked by the reader', () => {
  // reader: `kubectl exec` / `docker exec` / `docker compose exec` do not open the command they run
  it.todo('kubectl exec -it db-0 -- rm -rf /var/lib/postgresql/data');
  it.todo('docker compose exec web rm -rf /srv/uploads');
});
