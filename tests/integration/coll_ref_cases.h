/* coll_reference.c's cases: prepare() draws a case's parameters, fills its
 * buffers and computes the expected result, packed (coll_ref_data.h), then
 * spreads them into the layout of the case's datatype; start() makes the
 * call. Counts are in elements of the case's datatype, each lay_m kind
 * elements. */

static int lm(const Case *c) { return lay_m[c->lay]; }
static size_t esz(const Case *c) { return kind_size[c->kind] * (size_t)lm(c); }  /* packed bytes of one element */
static void cfill(const Case *c, void *buf, int count, int r) { fill(buf, c->kind, count * lm(c), seed, c->id, r); }
static void *cfilled(const Case *c, int count, int r) {
  void *p = xalloc(esz(c) * (size_t)count);
  cfill(c, p, count, r);
  return p;
}
static void *garbage(size_t bytes) { void *p = xalloc(bytes); memset(p, 0xEE, bytes); return p; }

static void pick_reduction(Case *c) {
  c->kind = draw(4) == 0 ? K_MAT : (int)draw(K_COUNT);  /* the non-commutative op often */
  c->op = kind_ops[c->kind][draw((unsigned)op_count(c->kind))];
  /* The user functions read one kind element per element of their datatype. */
  if (c->op >= OP_USER_SUM && lay_m[c->lay] != 1) c->lay = L_RESIZED;
}

/* Per-rank counts (at most `most`, or exactly `most` when uniform) and
 * displacements with small gaps; returns the extent in elements. */
static int layout(const Case *c, int uniform, int most, int salt, int **counts, int **displs) {
  *counts = xalloc(sizeof(int) * (size_t)c->size);
  *displs = xalloc(sizeof(int) * (size_t)c->size);
  int at = 0;
  for (int i = 0; i < c->size; ++i) {
    (*counts)[i] = uniform ? most : (int)hashed(c->id, salt + i, (unsigned)most + 1);
    at += uniform ? 0 : (int)hashed(c->id, salt + 500 + i, 3);
    (*displs)[i] = at;
    at += (*counts)[i];
  }
  return at;
}

/* Expected: `reference` over ranks lo..hi of `count` elements into a new buffer. */
static void *reduced(const Case *c, int count, int lo, int hi) {
  void *out = xalloc(esz(c) * (size_t)count), *tmp = xalloc(esz(c) * (size_t)count);
  reference(out, tmp, c->kind, c->op, count * lm(c), seed, c->id, lo, hi);
  free(tmp);
  return out;
}

static void prepare_rooted(Case *c, int in_place) {  /* gather(v), scatter(v) */
  const int uniform = c->coll == C_GATHER || c->coll == C_SCATTER, at_root = c->rank == c->root;
  const size_t es = esz(c);
  const int extent = layout(c, uniform, c->count, 0, &c->rcounts, &c->rdispls);
  c->in_place = in_place && at_root;
  const int mine = c->rcounts[c->rank];
  if (c->coll == C_GATHER || c->coll == C_GATHERV) {
    c->send = cfilled(c, mine, c->rank);
    c->send_n = mine;
    if (!at_root) return;
    c->recv = garbage(es * (size_t)extent);
    c->expect = garbage(es * (size_t)extent);
    c->recv_n = extent;
    for (int i = 0; i < c->size; ++i) cfill(c, (char *)c->expect + es * (size_t)c->rdispls[i], c->rcounts[i], i);
    if (c->in_place) memcpy((char *)c->recv + es * (size_t)c->rdispls[c->rank], c->send, es * (size_t)mine);
    c->check_bytes = es * (size_t)extent;
    return;
  }
  if (at_root) {
    c->send = garbage(es * (size_t)extent);
    c->send_n = extent;
    for (int i = 0; i < c->size; ++i) cfill(c, (char *)c->send + es * (size_t)c->rdispls[i], c->rcounts[i], i);
  }
  if (c->in_place) return;
  c->recv = garbage(es * (size_t)mine);
  c->expect = cfilled(c, mine, c->rank);
  c->recv_n = mine;
  c->check_bytes = es * (size_t)mine;
}

static void prepare_allgather(Case *c, int in_place) {
  const size_t es = esz(c);
  const int extent = layout(c, c->coll == C_ALLGATHER, c->count, 0, &c->rcounts, &c->rdispls);
  c->in_place = in_place;
  c->send = cfilled(c, c->rcounts[c->rank], c->rank);
  c->recv = garbage(es * (size_t)extent);
  c->expect = garbage(es * (size_t)extent);
  c->send_n = c->rcounts[c->rank];
  c->recv_n = extent;
  for (int i = 0; i < c->size; ++i) cfill(c, (char *)c->expect + es * (size_t)c->rdispls[i], c->rcounts[i], i);
  if (in_place)
    memcpy((char *)c->recv + es * (size_t)c->rdispls[c->rank], c->send, es * (size_t)c->rcounts[c->rank]);
  c->check_bytes = es * (size_t)extent;
}

/* Alltoall(v,w): the block from `src` to `dst` has pair_count elements of
 * pair_kind (both symmetric, so MPI_IN_PLACE is valid). */
static int pair_key(int a, int b) { return a < b ? a * 4096 + b : b * 4096 + a; }
static int pair_count(const Case *c, int src, int dst) {
  return c->coll == C_ALLTOALL ? c->count : (int)hashed(c->id, 20000 + pair_key(src, dst), (unsigned)c->count + 1);
}
static int pair_kind(const Case *c, int src, int dst) {
  return c->coll == C_ALLTOALLW ? (int)hashed(c->id, 9000000 + pair_key(src, dst), K_COUNT) : c->kind;
}
/* Alltoallw gives each pair its own layout too (a plain case keeps them plain). */
static int pair_lay(const Case *c, int src, int dst) {
  if (c->coll != C_ALLTOALLW) return c->lay;
  return c->lay == L_PLAIN ? L_PLAIN : (int)hashed(c->id, 7000000 + pair_key(src, dst), L_COUNT);
}
/* The block from `src` to `dst`: packed (spread later with the whole
 * buffer), or for alltoallw straight in its pair's layout. */
static void pair_block(const Case *c, void *at, int src, int dst) {
  const int kind = pair_kind(c, src, dst), lay = pair_lay(c, src, dst), count = pair_count(c, src, dst);
  const int n = count * lay_m[lay];
  if (c->coll != C_ALLTOALLW) {
    fill(at, kind, n, seed, c->id * 4096 + dst, src);
    return;
  }
  void *packed = xalloc(kind_size[kind] * (size_t)n);
  fill(packed, kind, n, seed, c->id * 4096 + dst, src);
  spread(at, packed, lay, kind, count);
  free(packed);
}

/* One side's counts, displacements (bytes for w, else elements) and types; returns its bytes. */
static size_t alltoall_side(Case *c, int sending, int **counts, int **displs, MPI_Datatype **types) {
  *counts = xalloc(sizeof(int) * (size_t)c->size);
  *displs = xalloc(sizeof(int) * (size_t)c->size);
  *types = xalloc(sizeof(MPI_Datatype) * (size_t)c->size);
  size_t at = 0;
  for (int j = 0; j < c->size; ++j) {
    const int src = sending ? c->rank : j, dst = sending ? j : c->rank, kind = pair_kind(c, src, dst);
    const int lay = pair_lay(c, src, dst);
    /* w: user bytes, gaps of whole extents; else packed elements of the case. */
    const size_t unit = c->coll == C_ALLTOALLW ? kind_extent[kind] : esz(c);
    if (c->coll != C_ALLTOALL) at += unit * hashed(c->id, 30000 + sending * 4096 + j, 3);
    (*counts)[j] = pair_count(c, src, dst);
    (*types)[j] = lay_type[kind][lay];
    (*displs)[j] = (int)(c->coll == C_ALLTOALLW ? at : at / unit);
    at += c->coll == C_ALLTOALLW ? lay_bytes(lay, kind, (*counts)[j]) : unit * (size_t)(*counts)[j];
  }
  return at;
}

static size_t byte_offset(const Case *c, const int *displs, int j) {
  return c->coll == C_ALLTOALLW ? (size_t)displs[j] : (size_t)displs[j] * esz(c);
}

static void prepare_alltoall(Case *c, int in_place) {
  const size_t send_bytes = alltoall_side(c, 1, &c->scounts, &c->sdispls, &c->stypes);
  const size_t recv_bytes = alltoall_side(c, 0, &c->rcounts, &c->rdispls, &c->rtypes);
  c->in_place = in_place;
  c->send = garbage(send_bytes);
  c->recv = garbage(recv_bytes);
  c->expect = garbage(recv_bytes);
  for (int j = 0; j < c->size; ++j) {
    pair_block(c, (char *)c->send + byte_offset(c, c->sdispls, j), c->rank, j);
    pair_block(c, (char *)c->expect + byte_offset(c, c->rdispls, j), j, c->rank);
    if (in_place) pair_block(c, (char *)c->recv + byte_offset(c, c->rdispls, j), c->rank, j);
  }
  c->check_bytes = recv_bytes;
  c->send_n = (int)(send_bytes / esz(c));
  c->recv_n = (int)(recv_bytes / esz(c));
}

static void prepare_reduce_scatter(Case *c, int in_place) {
  const size_t es = esz(c);
  int *displs = NULL;
  const int total = layout(c, c->coll == C_REDUCE_SCATTER_BLOCK, c->count, 0, &c->rcounts, &displs);
  int start = 0;
  for (int i = 0; i < c->rank; ++i) start += c->rcounts[i];
  free(displs);
  c->in_place = in_place;
  const int mine = c->rcounts[c->rank];
  c->send = cfilled(c, total, c->rank);
  c->recv = in_place ? cfilled(c, total, c->rank) : garbage(es * (size_t)mine);
  c->send_n = total;
  c->recv_n = in_place ? total : mine;
  void *all = reduced(c, total, 0, c->size - 1);
  c->expect = garbage(es * (size_t)(in_place ? total : mine));
  memcpy(c->expect, (char *)all + es * (size_t)start, es * (size_t)mine);
  free(all);
  c->check_bytes = es * (size_t)mine;
}

static void prepare_packed(Case *c, int in_place) {
  const size_t bytes = esz(c) * (size_t)c->count;
  switch (c->coll) {
    case C_BARRIER: return;
    case C_BCAST:
      c->recv = c->rank == c->root ? cfilled(c, c->count, c->root) : garbage(bytes);
      c->expect = cfilled(c, c->count, c->root);
      c->recv_n = c->count;
      c->check_bytes = bytes;
      return;
    case C_REDUCE: case C_ALLREDUCE: case C_SCAN: case C_EXSCAN: {
      const int checked = c->coll == C_ALLREDUCE || c->coll == C_SCAN || (c->coll == C_REDUCE && c->rank == c->root) ||
                          (c->coll == C_EXSCAN && c->rank > 0);
      c->in_place = in_place && (c->coll != C_REDUCE || c->rank == c->root);
      c->send = cfilled(c, c->count, c->rank);
      c->send_n = c->recv_n = c->count;
      if (c->coll != C_REDUCE || c->rank == c->root)
        c->recv = c->in_place ? cfilled(c, c->count, c->rank) : garbage(bytes);
      const int hi = c->coll == C_SCAN ? c->rank : c->coll == C_EXSCAN ? c->rank - 1 : c->size - 1;
      if (checked) c->expect = reduced(c, c->count, 0, hi);
      c->check_bytes = checked ? bytes : 0;
      return;
    }
    case C_GATHER: case C_GATHERV: case C_SCATTER: case C_SCATTERV: prepare_rooted(c, in_place); return;
    case C_ALLGATHER: case C_ALLGATHERV: prepare_allgather(c, in_place); return;
    case C_ALLTOALL: case C_ALLTOALLV: case C_ALLTOALLW: prepare_alltoall(c, in_place); return;
    case C_REDUCE_SCATTER: case C_REDUCE_SCATTER_BLOCK: prepare_reduce_scatter(c, in_place); return;
    case C_REDUCE_LOCAL:
      c->send = cfilled(c, c->count, 0);
      c->recv = cfilled(c, c->count, 1);
      c->send_n = c->recv_n = c->count;
      c->expect = reduced(c, c->count, 0, 1);
      c->check_bytes = bytes;
      return;
  }
}

/* `n` packed elements of layout `lay` into a new buffer laid out as that
 * datatype (gaps 0xEE); kept as it is where the two agree. */
static void *to_layout(const Case *c, void *packed, int lay, int n) {
  if (packed == NULL || (lay == L_PLAIN && kind_extent[c->kind] == kind_size[c->kind])) return packed;
  void *user = garbage(lay_bytes(lay, c->kind, n));
  spread(user, packed, lay, c->kind, n);
  free(packed);
  return user;
}

/* Which side of a mixed case sends (receives) plain kind elements, lay_m
 * times as many: the signatures match, the type maps differ. */
static int send_plain(const Case *c) {
  return c->mix && (c->coll == C_GATHER || c->coll == C_GATHERV || c->coll == C_ALLGATHER ||
                    c->coll == C_ALLGATHERV || c->coll == C_ALLTOALL || c->coll == C_ALLTOALLV);
}
static int recv_plain(const Case *c) {
  return c->mix && (c->coll == C_SCATTER || c->coll == C_SCATTERV || (c->coll == C_BCAST && c->rank != c->root));
}

static void prepare(Case *c) {
  const int in_place = (int)draw(3) == 0;
  c->root = (int)draw(64) % c->size;
  c->count = pick_count();
  c->lay = draw(2) ? L_PLAIN : (int)draw(L_COUNT);
  c->mix = (int)draw(2);
  const int spread_out = c->coll >= C_GATHER && c->coll <= C_REDUCE_SCATTER_BLOCK;
  if (spread_out && c->count > 3000) c->count /= c->size;  /* n blocks: keep buffers modest */
  if (lay_m[c->lay] > 1) c->count /= lay_m[c->lay];
  if (c->coll == C_REDUCE || c->coll == C_ALLREDUCE || c->coll >= C_REDUCE_SCATTER)
    pick_reduction(c);
  else
    c->kind = (int)draw(K_COUNT);
  if (c->lay == L_PLAIN || (!send_plain(c) && !recv_plain(c) && c->coll != C_BCAST)) c->mix = 0;
  prepare_packed(c, in_place);
  if (c->coll == C_ALLTOALLW) return;  /* its blocks are in their layouts already */
  const int m = lm(c), checked = (int)(c->check_bytes / esz(c));
  /* A plain side holds lay_m kind elements per element of the case. */
  const int ls = send_plain(c) ? L_PLAIN : c->lay, ms = send_plain(c) ? m : 1;
  const int lr = recv_plain(c) ? L_PLAIN : c->lay, mr = recv_plain(c) ? m : 1;
  c->send = to_layout(c, c->send, ls, c->send_n * ms);
  c->recv = to_layout(c, c->recv, lr, c->recv_n * mr);
  c->expect = to_layout(c, c->expect, lr, c->recv_n * mr);
  if (c->recv != NULL) c->check_bytes = lay_bytes(lr, c->kind, checked * mr);
  if (send_plain(c) && c->coll == C_ALLTOALLV)
    for (int j = 0; j < c->size; ++j) c->scounts[j] *= m, c->sdispls[j] *= m;
}

#define CALL(Name, name, ...) (c->nb ? MPI_I##name(__VA_ARGS__, &c->request) : MPI_##Name(__VA_ARGS__))

static void start(Case *c) {
  const void *sb = c->in_place ? MPI_IN_PLACE : c->send;
  void *rb = c->recv;
  const MPI_Datatype t = lay_type[c->kind][c->lay];
  /* A mixed case's plain side: kind elements, lay_m per element of t. */
  const MPI_Datatype ts = send_plain(c) ? kind_type[c->kind] : t, tr = recv_plain(c) ? kind_type[c->kind] : t;
  const int ms = send_plain(c) ? lm(c) : 1, mr = recv_plain(c) ? lm(c) : 1;
  const MPI_Op op = mpi_op(c->op);
  int rc = MPI_SUCCESS;
  switch (c->coll) {
    case C_BARRIER: rc = c->nb ? MPI_Ibarrier(c->comm, &c->request) : MPI_Barrier(c->comm); break;
    case C_BCAST: rc = CALL(Bcast, bcast, rb, c->count * mr, tr, c->root, c->comm); break;
    case C_REDUCE: rc = CALL(Reduce, reduce, sb, rb, c->count, t, op, c->root, c->comm); break;
    case C_ALLREDUCE: rc = CALL(Allreduce, allreduce, sb, rb, c->count, t, op, c->comm); break;
    case C_GATHER: rc = CALL(Gather, gather, sb, c->count * ms, ts, rb, c->count, t, c->root, c->comm); break;
    case C_GATHERV:
      rc = CALL(Gatherv, gatherv, sb, c->rcounts[c->rank] * ms, ts, rb, c->rcounts, c->rdispls, t, c->root, c->comm);
      break;
    case C_SCATTER:
      rc = CALL(Scatter, scatter, c->send, c->count, t, c->in_place ? MPI_IN_PLACE : rb, c->count * mr, tr, c->root,
                c->comm);
      break;
    case C_SCATTERV:
      rc = CALL(Scatterv, scatterv, c->send, c->rcounts, c->rdispls, t, c->in_place ? MPI_IN_PLACE : rb,
                c->rcounts[c->rank] * mr, tr, c->root, c->comm);
      break;
    case C_ALLGATHER: rc = CALL(Allgather, allgather, sb, c->count * ms, ts, rb, c->count, t, c->comm); break;
    case C_ALLGATHERV:
      rc = CALL(Allgatherv, allgatherv, sb, c->rcounts[c->rank] * ms, ts, rb, c->rcounts, c->rdispls, t, c->comm);
      break;
    case C_ALLTOALL: rc = CALL(Alltoall, alltoall, sb, c->count * ms, ts, rb, c->count, t, c->comm); break;
    case C_ALLTOALLV:
      rc = CALL(Alltoallv, alltoallv, sb, c->scounts, c->sdispls, ts, rb, c->rcounts, c->rdispls, t, c->comm);
      break;
    case C_ALLTOALLW:
      rc = CALL(Alltoallw, alltoallw, sb, c->scounts, c->sdispls, c->stypes, rb, c->rcounts, c->rdispls, c->rtypes, c->comm);
      break;
    case C_REDUCE_SCATTER: rc = CALL(Reduce_scatter, reduce_scatter, sb, rb, c->rcounts, t, op, c->comm); break;
    case C_REDUCE_SCATTER_BLOCK: rc = CALL(Reduce_scatter_block, reduce_scatter_block, sb, rb, c->count, t, op, c->comm); break;
    case C_SCAN: rc = CALL(Scan, scan, sb, rb, c->count, t, op, c->comm); break;
    case C_EXSCAN: rc = CALL(Exscan, exscan, sb, rb, c->count, t, op, c->comm); break;
    case C_REDUCE_LOCAL: rc = MPI_Reduce_local(c->send, rb, c->count, t, op); break;
  }
  if (rc != MPI_SUCCESS) fail(c, "the call returned an error");
}
