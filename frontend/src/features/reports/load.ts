/** The Report dialog's module, fetched on first use (the menus prefetch it on pointing). */
export const loadReportDialog = () => import('./report-dialog');
