DROP FUNCTION search_query(text, text, boolean);
