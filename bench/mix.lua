-- A community's traffic for `make bench` (bench/run.py, issue 30): many people reading many pages
-- while a few write, each request as one of the people (their token and an address of their
-- own, behind the trusted proxy the bench's loopback is), a fifth of them signed out.
-- Posts are picked by popularity (Zipf, s = 1.1, over the posts file in the order given: a
-- random order of the seeded posts, so popularity is unrelated to age).
--
-- Arguments: people file (lines "token address"; a "-" token is a signed-out person), posts
-- file (lines "post_id author_id"), newest file (ids of the newest posts, for Load More by
-- cursor), words file (music search words and people search names, "m word" or "p name"),
-- and the mode: `mix` (the whole mix), `reads` (the same without writes) or `ceiling` (every
-- request the ceiling's fixed body, through this same script: what the script itself costs);
-- then the ceiling's path. With MIX_RATE in the environment, each of wrk's threads sends that many
-- requests a second, on a schedule of its own, instead of each connection sending its next request as soon as it has
-- its answer (the mix paced at the load a community puts on the server, not at saturation: what
-- latency a person sees then). A request whose slot came while the connections were all waiting
-- goes out as soon as one is free, so a server that falls behind is not spared its load.
--
-- The shares, out of 1,000: For you page 1 350, Listened to page 1 100, Load More 80 (offset
-- 10-50 or a cursor 1-5 pages deep), a post page 200, its comments 100, its author's posts 50,
-- people search 30, music search 20, like toggles 50, new comments 15, new lyrics posts 5.
-- Signed-out people read For you where a signed-in one reads Listened to, and read where one
-- would write. A new lyrics post is titled as the seeded posts are (two of the seed's words), so
-- that what people post meanwhile is found by music search as often as what was there before:
-- posts of one fixed text piling up at the head would leave every search's newest matches ever
-- further down.

local people, posts, authors, newest, music_words, title_words, names = {}, {}, {}, {}, {}, {}, {}
local cumulative = {}
local mode = "mix"
local ceiling_path = "/bench/ceiling?bytes=8000"
local state = 0
local next_at = nil
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "tally.lua")

-- A small fast generator of its own per thread (wrk's threads each run this script): Park and
-- Miller's, exact in LuaJIT's doubles.
local function next_random()
  state = (state * 16807) % 2147483647
  return state
end

local function uniform(n)
  return (next_random() % n) + 1
end

-- The rank of a post by popularity: the inverse of the Zipf CDF by binary search.
local function popular()
  local u = next_random() / 2147483647 * cumulative[#cumulative]
  local lo, hi = 1, #cumulative
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if cumulative[mid] < u then lo = mid + 1 else hi = mid end
  end
  return lo
end

function init(args)
  for line in io.lines(args[1]) do
    local token, address = line:match("^(%S+) (%S+)$")
    people[#people + 1] = { token = token ~= "-" and token or nil, address = address }
  end
  for line in io.lines(args[2]) do
    local id, author = line:match("^(%S+) (%S+)$")
    posts[#posts + 1] = id
    authors[#authors + 1] = author
  end
  for line in io.lines(args[3]) do newest[#newest + 1] = line end
  for line in io.lines(args[4]) do
    local kind, word = line:match("^(%S) (.+)$")
    if kind == "m" then
      music_words[#music_words + 1] = word
      if not word:find("%%20") then title_words[#title_words + 1] = word end
    else
      names[#names + 1] = word
    end
  end
  mode = args[5] or "mix"
  if args[6] then ceiling_path = args[6] end
  local total = 0
  for rank = 1, #posts do
    total = total + 1 / rank ^ 1.1
    cumulative[rank] = total
  end
  state = math.random(1, 2000000000)
end

-- Milliseconds of the monotonic clock, through LuaJIT's FFI (wrk's Lua has no clock of its own
-- finer than a second).
local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } mix_timespec;
  int clock_gettime(int clock, mix_timespec *ts);
]]
local now_ts = ffi.new("mix_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, now_ts)
  return tonumber(now_ts.tv_sec) * 1000 + tonumber(now_ts.tv_nsec) / 1e6
end

-- When paced, wrk asks before each request but the first of a connection how long to wait: until
-- the thread's next slot. Defined only then: wrk schedules every request through its timers once
-- a script has `delay`, which would cost the unpaced runs throughput.
local rate = tonumber(os.getenv("MIX_RATE") or "")
if rate then
  local interval = 1000 / rate
  function delay()
    local now = now_ms()
    next_at = (next_at or now) + interval
    return math.max(0, math.floor(next_at - now))
  end
end

local function get(path, person)
  local headers = { ["X-Forwarded-For"] = person.address }
  if person.token then headers["Authorization"] = "Bearer " .. person.token end
  return wrk.format("GET", path, headers)
end

local function post(path, person, body)
  local headers = { ["X-Forwarded-For"] = person.address, ["Authorization"] = "Bearer " .. person.token }
  if body then headers["Content-Type"] = "application/json" end
  return wrk.format("POST", path, headers, body)
end

function request()
  local person = people[uniform(#people)]
  if mode == "ceiling" then
    return get(ceiling_path, person)
  end
  local r = uniform(1000)
  if mode == "reads" and r > 930 then
    r = uniform(930)
  end
  local rank = popular()
  local id = posts[rank]
  if r <= 350 or (r <= 450 and not person.token) then
    return get("/posts/feed?limit=10", person)
  elseif r <= 450 then
    return get("/posts/listened-to?limit=10", person)
  elseif r <= 530 then
    if r % 2 == 0 then
      return get("/posts/feed?limit=10&offset=" .. (10 * uniform(5)), person)
    end
    return get("/posts/feed?limit=10&before=" .. newest[math.min(#newest, 10 * uniform(5))], person)
  elseif r <= 730 then
    return get("/posts/" .. id, person)
  elseif r <= 830 then
    return get("/posts/" .. id .. "/comments?limit=20", person)
  elseif r <= 880 then
    return get("/posts/user/" .. authors[rank] .. "?limit=10", person)
  elseif r <= 910 then
    return get("/profiles/search?query=" .. names[uniform(#names)], person)
  elseif r <= 930 then
    return get("/posts/search?q=" .. music_words[uniform(#music_words)], person)
  elseif not person.token then
    return get("/posts/" .. id, person)
  elseif r <= 980 then
    return post("/posts/" .. id .. "/like", person)
  elseif r <= 995 then
    return post("/posts/" .. id .. "/comments", person, '{"content":"a bench comment"}')
  end
  local title = title_words[uniform(#title_words)] .. " " .. title_words[uniform(#title_words)]
  return post("/posts/lyrics", person, '{"songTitle":"' .. title .. '","artistName":"Bench","parts":[{"type":"verse",'
    .. '"lyrics":"' .. title .. '\\nall night long"},{"type":"chorus","lyrics":"oh ' .. title .. '"}],"caption":"new"}')
end

function done(summary, latency, requests)
  local totals = tally()
  io.write(string.format("MIX ok=%d client_errors=%d server_errors=%d refused=%d\n", totals.ok, totals.client_errors,
    totals.server_errors, totals.refused))
  io.write("FIRST_ERROR " .. totals.first_error .. "\n")
end
