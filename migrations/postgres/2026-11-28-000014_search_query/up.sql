-- A search's query as a tsquery, built so that nothing a person types can be tsquery syntax
-- (issue 29). `to_tsquery(unaccent(text))` let unaccent turn letters into syntax: "ʻukulele"
-- became "'ukulele", "ŉ" "'n", "⑴" "(1)", "ː" ":", and each such search answered 500. Here the
-- words are unaccented and split by the same parser that made the posts' documents
-- (to_tsvector 'simple'), and each lexeme is quoted before to_tsquery reads it.
--   whole: the words matched whole; start: the word matched by its start (a prefix), or '';
--   names: whether only the names (weight A) count.
-- Words that fold to nothing (a lone "ʹ") make no query (NULL), which matches nothing.
CREATE FUNCTION search_query(whole text, start text, names boolean) RETURNS tsquery
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT to_tsquery('simple', string_agg(
           '''' || replace(replace(t.lexeme, '\', '\\'), '''', '''''') || '''' ||
           CASE WHEN t.prefix AND names THEN ':*A' WHEN t.prefix THEN ':*' WHEN names THEN ':A' ELSE '' END,
         ' & '))
  FROM (SELECT lexeme, false AS prefix FROM unnest(to_tsvector('simple', unaccent(whole)))
        UNION ALL
        SELECT lexeme, true FROM unnest(to_tsvector('simple', unaccent(start)))) t
$$;
