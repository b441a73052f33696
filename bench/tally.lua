-- What the wrk scripts of bench/ share (soak.lua, writes.lua, mix.lua): each thread counts its
-- answers by kind and keeps the first failure; `tally()` sums them over the threads once wrk is
-- done. A music search refused for its cost (the 400 of its time limit on PostgreSQL, an answer
-- the server gives by design when it is too busy to finish one in time) is counted apart.
-- Loaded with `dofile` from the folder of the script that uses it.

ok, client_errors, server_errors, refused = 0, 0, 0, 0
first_error = ""

function response(status, headers, body)
  if status < 400 then
    ok = ok + 1
  elseif status == 400 and string.find(body or "", "takes too long to answer", 1, true) then
    refused = refused + 1
  else
    if status < 500 then client_errors = client_errors + 1 else server_errors = server_errors + 1 end
    if first_error == "" then first_error = status .. " " .. string.sub(body or "", 1, 200) end
  end
end

local threads = {}

function setup(thread)
  threads[#threads + 1] = thread
end

function tally()
  local totals = { ok = 0, client_errors = 0, server_errors = 0, refused = 0, first_error = "" }
  for _, t in ipairs(threads) do
    totals.ok = totals.ok + t:get("ok")
    totals.client_errors = totals.client_errors + t:get("client_errors")
    totals.server_errors = totals.server_errors + t:get("server_errors")
    totals.refused = totals.refused + t:get("refused")
    if totals.first_error == "" then totals.first_error = t:get("first_error") end
  end
  return totals
end
