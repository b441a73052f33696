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
  // Words no post has all of: the posts with some of them, said as such.
  await page.getByPlaceholder('Search').fill(`${word} nothingmatches`);
  await expect(page.getByText('No post has all of these words; showing posts with some of them')).toBeVisible();
  await expect(results.getByRole('article')).toHaveCount(1);
  // A word no post has: nothing.
  await page.getByPlaceholder('Search').fill(`q${[...word].reverse().join('')}`);
  await expect(page.getByText('No results found.')).toBeVisible();
  expect(csp).toEqual([]);
});

/** A score for a choir whose one part sings `words` (each word one note, "Ha-rbour" split). */
function sungScore(title: string, words: string[]): Buffer {
  const notes = words
    .map(
      (w) =>
        `<note><pitch><step>G</step><octave>4</octave></pitch><duration>1</duration><type>quarter</type>` +
        `<lyric number="1"><syllabic>single</syllabic><text>${w}</text></lyric></note>`,
    )
    .join('');
  return Buffer.from(
    `<?xml version="1.0"?><score-partwise version="4.0"><work><work-title>${title}</work-title></work>` +
      '<part-list><score-part id="P1"><part-name>Choir</part-name></score-part></part-list>' +
      `<part id="P1"><measure number="1"><attributes><divisions>1</divisions></attributes>${notes}</measure></part></score-partwise>`,
  );
}

test('a search shows why each post matched, falls back to some of the words, and finds sung words', async ({
  page,
  request,
  server,
  shot,
}, testInfo) => {
  test.setTimeout(90_000);
  const ana = await signedUpAccount(request, server, uniqueEmail('search-why', testInfo.project.name), 'Ana Why');
  const headers = { Authorization: `Bearer ${ana.token}` };
  const word = `y${Math.random().toString(36).slice(2, 7).padEnd(5, 'q')}`;
  const song = await request.post(`${server.url}/posts/lyrics`, {
    headers,
    data: {
      songTitle: 'Harbour Lights',
      artistName: 'Ana Why',
      parts: [
        { type: 'verse', lyrics: `Lights on the water ${word}\nCarry me home where the river goes\nDown to the sea` },
        { type: 'chorus', lyrics: 'Harbour lights, harbour lights' },
      ],
    },
  });
  expect(song.status(), await song.text()).toBe(201);
  const motet = await request.post(`${server.url}/posts/musicxml`, {
    headers,
    multipart: {
      musicxml_files: {
        name: 'motet.musicxml',
        mimeType: 'application/xml',
        buffer: sungScore(`Motet ${word}`, ['Ave', 'verum', 'corpus', 'natum', 'de', 'Maria', 'virgine']),
      },
    },
  });
  expect(motet.status(), await motet.text()).toBe(201);

  await signInThroughAddress(page, server.appUrl, ana.token);
  const results = page.getByRole('list', { name: 'Music' });
  const search = async (words: string) => {
    await page.goto(`${server.appUrl}/search?tab=music&q=${encodeURIComponent(words)}`);
    await expect(results.getByRole('article').first()).toBeVisible();
  };

  // The line of the lyrics with the words, each word marked.
  await search(`carry me home where the river goes ${word}`);
  await expect(results.getByRole('article')).toHaveCount(1);
  const why = results.locator('[data-search-snippet]');
  await expect(why).toContainText('Lyrics');
  await expect(why).toContainText('Carry me home where the river goes');
  // The line with the most words first, then the one with this run's word.
  await expect(why.locator('mark')).toHaveText(['Carry', 'me', 'home', 'where', 'the', 'river', 'goes', 'the', word]);
  await expect(page.getByText(/No post has all of these words/)).toHaveCount(0);
  await shot('search-why-lyrics');

  // Words a score sets are found, and said to be sung.
  await search(`verum natum ${word}`);
  await expect(results.getByRole('article')).toHaveCount(1);
  await expect(results).toContainText(`Motet ${word}`);
  await expect(why.filter({ hasText: 'Sung' })).toContainText('Ave verum corpus natum');
  await expect(why.locator('mark')).toContainText(['verum', 'natum']);

  // No post has all of the words: the posts with some of them, most first, said as such.
  await search(`${word} carry virgine river`);
  await expect(page.getByText('No post has all of these words; showing posts with some of them')).toBeVisible();
  // (Posts of other journeys may have one of the words: they come after these two.)
  await expect(results.getByRole('article').first()).toContainText('Harbour Lights');
  await expect(results.getByRole('article').nth(1)).toContainText(`Motet ${word}`);
  await shot('search-why-some-words');
});
