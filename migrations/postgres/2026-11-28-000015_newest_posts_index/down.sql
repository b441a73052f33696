DROP INDEX posts_id_user_id_idx;
