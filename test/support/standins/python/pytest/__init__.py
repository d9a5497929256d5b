# A stand-in for pytest's fixture decorator: the recipe's fixture stays a plain generator function,
# which the driver (ci-recipes-run.test.ts) runs as pytest would: up to its yield, then to its end.
def fixture(*args, **kwargs):
    if args and callable(args[0]):
        return args[0]
    return lambda f: f
