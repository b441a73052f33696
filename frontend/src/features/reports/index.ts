/**
 * The reports feature's public surface (docs/frontend.md, "Boundaries"): the Report dialog of
 * a post or a comment, which the posts and comments menus open. It is fetched on first use
 * (`loadReportDialog`), so nothing of it is in the first load.
 */
export type { ReportTarget } from './api';
export { loadReportDialog } from './load';
