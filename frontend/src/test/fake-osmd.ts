/**
 * OpenSheetMusicDisplay cannot lay out music in jsdom (no SVG measuring); the real drawing is
 * proven in the browser journeys. Unit tests put this stand-in in its place; it records what is
 * asked of it:
 *
 *   vi.mock('opensheetmusicdisplay', async () => ({
 *     OpenSheetMusicDisplay: (await import('../../test/fake-osmd')).FakeOsmd,
 *   }));
 */
export class FakeOsmd {
  static instances: FakeOsmd[] = [];
  static failLoad: Error | null = null;
  container: HTMLElement;
  options: unknown;
  loaded: unknown = null;
  Zoom = 1;
  renders: number[] = [];
  clears = 0;
  constructor(container: HTMLElement, options: unknown) {
    this.container = container;
    this.options = options;
    FakeOsmd.instances.push(this);
  }
  load(source: unknown): Promise<object> {
    if (FakeOsmd.failLoad) return Promise.reject(FakeOsmd.failLoad);
    this.loaded = source;
    return Promise.resolve({});
  }
  render(): void {
    this.renders.push(this.Zoom);
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    this.container.replaceChildren(svg);
  }
  clear(): void {
    this.clears += 1;
  }
  setLogLevel(): void {}
  /** One system of the score's one measure: what score-drawing reads after a render. */
  get GraphicSheet() {
    return { MusicPages: [{ MusicSystems: [{}], PositionAndShape: { Size: { width: 100 } } }], MeasureList: [] };
  }
  get Sheet() {
    return { SourceMeasures: [] };
  }
}
