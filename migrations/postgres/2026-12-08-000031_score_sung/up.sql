-- The words a score sets (issue 34): read from its lyrics when it is posted, at most 4,000
-- characters (`media_validation::MAX_SUNG_CHARS`), and searched with the post's other words.
ALTER TABLE post_scores ADD COLUMN sung TEXT NOT NULL DEFAULT '';

-- A search's query matching any of its words (issue 34: when no post has all of them), built
-- as `search_query` builds one that needs all (each lexeme quoted, the start of a word as a
-- prefix), joined by | instead of &.
CREATE FUNCTION search_query_any(whole text, start text) RETURNS tsquery
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT to_tsquery('simple', string_agg(
           '''' || replace(replace(t.lexeme, '\', '\\'), '''', '''''') || '''' ||
           CASE WHEN t.prefix THEN ':*' ELSE '' END,
         ' | '))
  FROM (SELECT lexeme, false AS prefix FROM unnest(to_tsvector('simple', unaccent(whole)))
        UNION ALL
        SELECT lexeme, true FROM unnest(to_tsvector('simple', unaccent(start)))) t
$$;

-- Scores posted before now get their words read from their files by a background job that
-- walks them in batches (posts::kinds::scores, "scores.old").
INSERT INTO jobs (id, kind, subject, payload, owner_id, lane_seq, state, attempts, run_after, created_at)
SELECT 2, 'scores.old', 'after:0', '{"after":0}', NULL, 0, 'queued', 0, (now() AT TIME ZONE 'UTC'), (now() AT TIME ZONE 'UTC')
WHERE EXISTS (SELECT 1 FROM post_scores);
