/**
 * Starts the scale-out topology (topology.ts) for the journey and describes it to the tests
 * through the environment; the returned function stops every part and drops the database.
 */
import { TOPOLOGY_ENV, startTopology } from './topology';

export default async function globalSetup() {
  const started = Date.now();
  const { info, stop } = await startTopology();
  process.env[TOPOLOGY_ENV] = JSON.stringify(info);
  console.log(
    `[scale-out] Caddy ${info.url} → ${info.processes.map((p) => `${p.name} ${p.address}`).join(', ')}; ` +
      `database ${info.database}, bucket ${info.bucket}; started in ${((Date.now() - started) / 1000).toFixed(1)} s (${info.root})`,
  );
  return async () => {
    const stopping = Date.now();
    await stop();
    console.log(`[scale-out] stopped in ${((Date.now() - stopping) / 1000).toFixed(1)} s`);
  };
}
