/**
 * Finding music (issue 20): the Search page's Music tab finds posts by the words of their titles,
 * artists, composers and lyrics, accents aside, shows them as cards with the player (a track
 * found plays from there), narrows them by kind, and keeps all of it in the address.
 */
import { expect, test, uniqueEmail } from './support/fixtures';
import { signInThroughAddress, signedUpAccount } from './support/accounts';
import { toneWav } from './support/audio';
import { watchCsp } from './support/csp';

test('the Music tab finds songs, tracks and scores by their words, and plays what it finds', async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  test.setTimeout(90_000);
  const csp = watchCsp(page);
  const ana = await signedUpAccount(request, server, uniqueEmail('music-search', testInfo.project.name), 'Ana Finder');
  const headers = { Authorization: `Bearer ${ana.token}` };
  // A word of this run's own, so the journeys running beside it find nothing of theirs: six
  // characters, as a word typed last is matched by its first six.
  const word = `z${Math.random().toString(36).slice(2, 7).padEnd(5, 'q')}`;
  const song = await request.post(`${server.url}/posts/lyrics`, {
    headers,
    data: { songTitle: `Harbour ${word}`, artistName: 'Ana', parts: [{ type: 'verse', lyrics: `the tide comes in ${word}` }] },
  });
  expect(song.status(), await song.text()).toBe(201);
  const track = await request.post(`${server.url}/posts/audio`, {
    headers,
    multipart: {
      audio_files: { name: 'take.wav', mimeType: 'audio/wav', buffer: toneWav(8, 330) },
      titles: `Nocturne ${word}`,
      artists: 'Frédéric Ensemble',
    },
  });
  expect(track.status(), await track.text()).toBe(201);
  const score = await request.post(`${server.url}/posts/musicxml`, {
    headers,
    multipart: {
      musicxml_files: {
        name: 'etude.musicxml',
        mimeType: 'application/xml',
        buffer: Buffer.from(
          '<?xml version="1.0"?><score-partwise version="4.0"><part-list><score-part id="P1"><part-name>Piano</part-name></score-part></part-list>' +
            '<part id="P1"><measure number="1"><attributes><divisions>1</divisions></attributes><note><pitch><step>C</step><octave>4</octave></pitch><duration>4</duration><type>whole</type></note></measure></part></score-partwise>',
        ),
      },
      titles: `Étude ${word}`,
      composers: 'Clara Dvořák',
    },
  });
  expect(score.status(), await score.text()).toBe(201);

  await signInThroughAddress(page, server.appUrl, ana.token);
  await page.goto(`${server.appUrl}/search`);
  await expect(page.getByRole('tab', { name: 'People' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Music' }).click();
  await expect(page.getByRole('heading', { name: 'Find music' })).toBeVisible();
  await page.getByPlaceholder('Search').fill(word);
  const results = page.getByRole('list', { name: 'Music' });
  await expect(results.getByRole('article')).toHaveCount(3);
  await expect(page).toHaveURL(new RegExp(`/search\\?tab=music&q=${word}$`));
  await shot('search-music');

  // Accents and case aside, by a composer's name; by a word of the lyrics.
  await page.getByPlaceholder('Search').fill(`dvorak ${word}`);
  await expect(results.getByRole('article')).toHaveCount(1);
  await expect(results).toContainText(`Étude ${word}`);
  await page.getByPlaceholder('Search').fill(`tide ${word}`);
  await expect(results.getByRole('article')).toHaveCount(1);
  await expect(results).toContainText(`Harbour ${word}`);

  // One kind: audio; the track found plays from here.
  await page.getByPlaceholder('Search').fill(word);
  await page.getByRole('radio', { name: 'Audio' }).check();
  await expect(page).toHaveURL(/type=audio/);
  await expect(results.getByRole('article')).toHaveCount(1);
  await results.getByRole('button', { name: `Play Nocturne ${word}` }).click();
  const bar = page.getByRole('region', { name: 'Now playing' });
  await expect(bar).toContainText(`Nocturne ${word}`);
  await expect(bar.getByRole('button', { name: /Pause/ })).toBeVisible();
  await shot('search-music-audio');

  // Nothing found says so; a reload keeps the tab, the words and the kind.
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Music' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('radio', { name: 'Audio' })).toBeChecked();
  await expect(results.getByRole('article')).toHaveCount(1);
  await page.getByPlaceholder('Search').fill(`${word} nothingmatches`);
  await expect(page.getByText('No results found.')).toBeVisible();
  expect(csp).toEqual([]);
});
