"""A stand-in for the ``ray`` module, shared by the distributed tests that need no Ray (``from _fake_ray import FakeRay``)."""

from __future__ import annotations


class FakeRay:
    """A stand-in ``ray`` module. Tasks finish in ``finish_order`` (indices into the order they were sent), one per
    ``wait``; with no order, in the order they were sent. A task runs when the driver gets its result."""

    def __init__(self, finish_order=None):
        self.finish_order = None if finish_order is None else list(finish_order)
        self.sent = []  # (ref, function, key, args, fault)
        self.finished = []  # shard keys, in the order they finished
        self.cancelled = []

    def remote(self, **options):
        fake = self

        def wrap(function):
            class Remote:
                @staticmethod
                def remote(fn, key, args, fault):
                    ref = len(fake.sent)
                    fake.sent.append((ref, fn, key, args, fault))
                    return ref
            return Remote

        return wrap

    def wait(self, refs, num_returns=1, timeout=None):
        if self.finish_order is None:
            ref = refs[0]
        else:
            ref = next(r for r in self.finish_order if r in refs)
            self.finish_order.remove(ref)
        self.finished.append(self.sent[ref][2])
        return [ref], [r for r in refs if r != ref]

    def get(self, ref):
        from ipb.distributed.shards import _run_shard

        _, fn, key, args, fault = self.sent[ref]
        return _run_shard(fn, key, args, fault)

    def cancel(self, ref):
        self.cancelled.append(ref)
