import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { currentLocation, renderPage } from '../../test/render';
import { AddMusicXmlPostPage } from './add-musicxml-post-page';
import { MB } from './validation';

function score(name: string, type = '', size?: number, xml = '<score-partwise/>'): File {
  const file = new File([xml], name, { type });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
}

function renderScorePage() {
  const utils = renderPage(<AddMusicXmlPostPage />, { route: '/add-post-musicxml', path: '/add-post-musicxml' });
  const user = userEvent.setup({ applyAccept: false });
  const pick = (...files: File[]) => user.upload(screen.getByLabelText('MusicXML files'), files);
  return { ...utils, user, pick };
}

describe('AddMusicXmlPostPage', () => {
  it('takes .musicxml, .xml, .mxl or an XML type, prefilled with the name and "Unknown Composer"', async () => {
    const { pick } = renderScorePage();
    await pick(
      score('Fugue.musicxml'),
      score('air.mxl', 'application/vnd.recordare.musicxml'),
      score('joplin_maple_leaf_rag', 'application/xml'),
      score('song.pdf', 'application/pdf'),
      score('big.xml', 'text/xml', 10 * MB + 1),
    );
    const cards = within(screen.getByRole('region', { name: 'Selected files' })).getAllByRole('group');
    expect(cards.map((c) => within(c).getByLabelText('Title'))).toEqual([
      expect.objectContaining({ value: 'Fugue' }),
      // A file name made readable, as the server makes it (issue 34).
      expect.objectContaining({ value: 'Air' }),
      expect.objectContaining({ value: 'Joplin maple leaf rag' }),
    ]);
    expect(within(cards[0]!).getByLabelText('Composer')).toHaveValue('Unknown Composer');
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('song.pdf is not a valid MusicXML file');
    expect(alert).toHaveTextContent('big.xml exceeds 10MB limit');
    expect(screen.getByText(/what you see is what is published/)).toBeInTheDocument();
  });

  it("shows the score's own title and composer once read, unless they were changed meanwhile", async () => {
    const named = (title: string, composer: string) =>
      `<?xml version="1.0"?><score-partwise><work><work-title>${title}</work-title></work>` +
      `<identification><creator type="composer">${composer}</creator></identification></score-partwise>`;
    const { pick } = renderScorePage();
    await pick(
      score('bach_bwv110.7.xml', '', undefined, named('Wir singen dir, Emanuel', 'Johann Sebastian Bach')),
      // Mojibake and an extension are not titles; the name made readable stays.
      score('monteverdi.xml', '', undefined, named("\\J.D. 'JUa..J..UU", 'Claudio Monteverdi')),
      score('rag.xml', '', undefined, named('Maple Leaf Rag.mxl', '')),
    );
    const cards = within(screen.getByRole('region', { name: 'Selected files' })).getAllByRole('group');
    await waitFor(() => expect(within(cards[0]!).getByLabelText('Title')).toHaveValue('Wir singen dir, Emanuel'));
    expect(within(cards[0]!).getByLabelText('Composer')).toHaveValue('Johann Sebastian Bach');
    await waitFor(() => expect(within(cards[1]!).getByLabelText('Composer')).toHaveValue('Claudio Monteverdi'));
    expect(within(cards[1]!).getByLabelText('Title')).toHaveValue('Monteverdi');
    await waitFor(() => expect(within(cards[2]!).getByLabelText('Title')).toHaveValue('Maple Leaf Rag'));
    expect(within(cards[2]!).getByLabelText('Composer')).toHaveValue('Unknown Composer');
  });

  it('keeps what was typed before the file was read', async () => {
    const { pick, user } = renderScorePage();
    let release!: () => void;
    const slow = score('late.xml', '', undefined, '<score-partwise><work><work-title>Late</work-title></work></score-partwise>');
    const text = slow.arrayBuffer.bind(slow);
    Object.defineProperty(slow, 'arrayBuffer', {
      value: () => new Promise<ArrayBuffer>((resolve) => (release = () => void text().then(resolve))),
    });
    await pick(slow);
    const title = screen.getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Mine');
    release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(title).toHaveValue('Mine');
  });

  it('holds at most 5 files', async () => {
    const { pick } = renderScorePage();
    await pick(...Array.from({ length: 6 }, (_, i) => score(`s${i}.xml`)));
    expect(screen.getAllByRole('group')).toHaveLength(5);
    expect(screen.getByRole('alert')).toHaveTextContent('Maximum 5 MusicXML files allowed per post');
  });

  it('asks for a file, then for a title and a composer for each', async () => {
    const { pick, user } = renderScorePage();
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select at least one MusicXML file');
    await pick(score('a.xml'));
    await user.clear(screen.getByLabelText('Title'));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in title and composer for all MusicXML files');
    expect(screen.getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true');
  });

  it('sends musicxml_files, titles and composers as shown, then goes home after 1.5 s', async () => {
    const received: unknown[] = [];
    server.use(
      http.post(api('/posts/musicxml'), async ({ request }) => {
        const form = await request.formData();
        received.push({
          titles: form.getAll('titles'),
          composers: form.getAll('composers'),
          files: form.getAll('musicxml_files').length,
          caption: form.get('caption'),
        });
        return HttpResponse.json({ id: '3', type: 'musicxml' }, { status: 201 });
      }),
    );
    const { pick, user } = renderScorePage();
    await pick(score('fugue.xml'), score('air.mxl'));
    const second = screen.getAllByRole('group')[1]!;
    await user.clear(within(second).getByLabelText('Composer'));
    await user.type(within(second).getByLabelText('Composer'), 'J. S. Bach');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Post published');
    expect(received).toEqual([
      { titles: ['Fugue', 'Air'], composers: ['Unknown Composer', 'J. S. Bach'], files: 2, caption: '' },
    ]);
    await waitFor(() => expect(currentLocation()).toBe('/home'), { timeout: 2500 });
  });
});
