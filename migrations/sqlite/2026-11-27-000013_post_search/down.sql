DROP TABLE posts_search;
