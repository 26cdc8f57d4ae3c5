using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using CoarseTimers.Analyzers.Internals;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Shared;

/// <summary>
/// Follows the callers of a member inside the compilation: a member whose every call site is cold (lifecycle code, a catch
/// block, test code, the entry point; <see cref="ColdContext"/>), directly or through callers that are themselves only
/// called from cold code, runs only when its callers do, so it is cold too (docs/hot-paths.md, "Cold callers").
/// <para>
/// The data structure, one per compilation: the places each asked-about name is spelled (<see cref="NameOccurrences"/>), and one answer per (member, depth). Only the member that holds a would-be diagnostic is ever asked
/// about, and only the few tokens that spell its name are bound, so the cost grows with the number of diagnostics, not
/// with the size of the compilation; most compilations never ask.
/// </para>
/// <para>
/// Tuning knob: <see cref="MaxDepth"/> (how many caller levels are followed); a member whose name is spelled more than
/// <see cref="NameOccurrences.MaxTokens"/> times is not followed (its name is too common to bind every use cheaply).
/// </para>
/// A member is followed only when every caller can be seen: ordinary methods and constructors that are not virtual,
/// abstract, overrides or interface implementations, are not used as a method group (a delegate, an event handler) and
/// have at least one call site. Anything else has callers the compilation does not show, and is left alone.
/// </summary>
internal sealed class ColdCallers
{
    /// <summary>Caller levels followed: the member's callers, their callers, and theirs.</summary>
    internal const int MaxDepth = 3;

    private readonly Compilation _compilation;
    private readonly KnownSymbols _symbols;
    private readonly NameOccurrences _names;
    private readonly ConcurrentDictionary<(IMethodSymbol Method, int Depth, long PollingThreshold), string?> _answers = new();
    private readonly ConcurrentDictionary<IMethodSymbol, ImmutableArray<CallSite>> _sites = new(SymbolEqualityComparer.Default);

    public ColdCallers(Compilation compilation, KnownSymbols symbols, NameOccurrences names)
    {
        _compilation = compilation;
        _symbols = symbols;
        _names = names;
    }

    /// <summary>Why every caller of <paramref name="method"/> is cold (<c>only called from lifecycle: StartAsync</c>), or null.</summary>
    /// <remarks>
    /// <paramref name="pollingThresholdMilliseconds"/> is the asking site's <c>polling_threshold_ms</c>: it decides which
    /// callers' loops are paced (a loop that sleeps only short polling delays is not).
    /// </remarks>
    public string? Reason(IMethodSymbol method, long pollingThresholdMilliseconds, CancellationToken cancellationToken) =>
        Reason(method.CallTarget(), MaxDepth, pollingThresholdMilliseconds, new HashSet<IMethodSymbol>(SymbolEqualityComparer.Default), cancellationToken);

    private string? Reason(IMethodSymbol method, int depth, long pollingThresholdMilliseconds, HashSet<IMethodSymbol> visiting, CancellationToken cancellationToken)
    {
        if (depth <= 0 || !CanSeeEveryCaller(method) || !visiting.Add(method))
        {
            return null;
        }

        try
        {
            if (_answers.TryGetValue((method, depth, pollingThresholdMilliseconds), out var known))
            {
                return known;
            }

            var answer = Compute(method, depth, pollingThresholdMilliseconds, visiting, cancellationToken);
            _answers.TryAdd((method, depth, pollingThresholdMilliseconds), answer);
            return answer;
        }
        finally
        {
            visiting.Remove(method);
        }
    }

    private string? Compute(IMethodSymbol method, int depth, long pollingThresholdMilliseconds, HashSet<IMethodSymbol> visiting, CancellationToken cancellationToken)
    {
        var sites = CallSites(method, cancellationToken);
        if (sites.IsDefaultOrEmpty)
        {
            return null;
        }

        string? first = null;
        foreach (var site in sites)
        {
            if (site.Caller is IMethodSymbol caller && SymbolEqualityComparer.Default.Equals(caller.CallTarget(), method))
            {
                // Recursion enters the member from itself, which adds no way in: its other callers decide.
                continue;
            }

            var why = site.RareUse switch
            {
                RareUse.PeriodicTimerCallback => "only called by a periodic timer",
                RareUse.CancellationCallback => "only called when a token is cancelled",
                RareUse.TypeInitialization => $"only run by the type initializer of {site.Caller?.ContainingType?.Name}, once",
                _ => CallerReason(site.Call, site.Caller, depth, pollingThresholdMilliseconds, visiting, cancellationToken),
            };
            if (why is null)
            {
                return null;
            }

            first ??= why;
        }

        return first;
    }

    /// <summary>
    /// Every caller of <paramref name="method"/> calls it in the body of one of its own loops, outside cold code, so each
    /// run of the member is one iteration of its caller's loop: the member's body is a loop body. A catch in the caller's
    /// loop does not make the member's own delays backoff: they are on its normal path. Callers are not followed further,
    /// and the call sites must all be seen.
    /// </summary>
    public bool IsCalledInLoops(IMethodSymbol method, long pollingThresholdMilliseconds, CancellationToken cancellationToken)
    {
        var sites = PlainCallSites(method, cancellationToken);
        if (sites.IsDefault)
        {
            return false;
        }

        foreach (var (call, caller, _) in sites)
        {
            // A call in a lambda declared in a loop's body is in that body, as rule 1 reads such a lambda: the loop is
            // the lambda's, and its member the one whose cold evidence counts.
            var (site, member) = caller is IMethodSymbol { MethodKind: MethodKind.AnonymousFunction, ContainingSymbol: IMethodSymbol outer } && EnclosingLambda(call) is { } lambda
                ? ((IOperation)lambda, outer)
                : (call, caller as IMethodSymbol);
            if (member is null or { MethodKind: MethodKind.AnonymousFunction } || ColdContext.Reason(site, MemberOf(member), _symbols.IsTestProject) is not null ||
                EnclosingLoop(site) is null || PacedRunLoop(site, pollingThresholdMilliseconds) is not null)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// Every call of <paramref name="method"/> in the compilation (invocations and object creations), when every caller
    /// can be seen and each use is a call; default otherwise (also when nothing calls it).
    /// </summary>
    public ImmutableArray<IOperation> Calls(IMethodSymbol method, CancellationToken cancellationToken)
    {
        var sites = PlainCallSites(method, cancellationToken);
        return sites.IsDefault ? default : ImmutableArray.CreateRange(sites, site => site.Call);
    }

    /// <summary>
    /// <see cref="CallSites"/> when every caller can be seen, there is at least one, and each is a plain call (no rare use
    /// such as a periodic timer's callback); default otherwise.
    /// </summary>
    private ImmutableArray<CallSite> PlainCallSites(IMethodSymbol method, CancellationToken cancellationToken)
    {
        method = method.CallTarget();
        if (!CanSeeEveryCaller(method))
        {
            return default;
        }

        var sites = CallSites(method, cancellationToken);
        if (sites.IsDefaultOrEmpty)
        {
            return default;
        }

        foreach (var site in sites)
        {
            if (site.RareUse != RareUse.None)
            {
                return default;
            }
        }

        return sites;
    }

    /// <summary>
    /// The calls of <paramref name="method"/> in the compilation with the member each is made from; default when some
    /// caller cannot be seen (a method group use, a name too common to follow), empty when nothing calls it. Memoised.
    /// </summary>
    private ImmutableArray<CallSite> CallSites(IMethodSymbol method, CancellationToken cancellationToken) =>
        _sites.GetOrAdd(method, m => FindCallSites(m, cancellationToken));

    private ImmutableArray<CallSite> FindCallSites(IMethodSymbol method, CancellationToken cancellationToken)
    {
        var name = method.MethodKind == MethodKind.Constructor ? method.ContainingType.Name : method.Name;
        var occurrences = _names.Find(name, method.MethodKind == MethodKind.Constructor, cancellationToken);
        if (occurrences.Tokens.Count > NameOccurrences.MaxTokens)
        {
            return default;
        }

        var sites = ImmutableArray.CreateBuilder<CallSite>();
        foreach (var token in occurrences.Tokens)
        {
            if (method.MethodKind == MethodKind.Constructor && HidesCalls(token, method, cancellationToken))
            {
                return default;
            }

            var call = CallThrough(token, method, cancellationToken, out var usedOtherwise);
            if (usedOtherwise)
            {
                return default;
            }

            if (call is not null)
            {
                sites.Add(call.Value);
            }
        }

        if (method.MethodKind == MethodKind.Constructor)
        {
            // Target-typed `new(...)`, `this(...)` and `base(...)` name no type: bind each one in the files that name the
            // type (a target type, the type's own declaration, a derived type's base list) to see whether it calls this one.
            foreach (var node in occurrences.Unnamed)
            {
                var model = _compilation.GetSemanticModel(node.SyntaxTree);
                var operation = model.GetOperation(node, cancellationToken);
                if (operation is IExpressionStatementOperation statement)
                {
                    operation = statement.Operation;
                }

                var constructor = operation switch
                {
                    IObjectCreationOperation c => c.Constructor,
                    IInvocationOperation i => i.TargetMethod,
                    _ => null,
                };
                if (operation is not null && SymbolEqualityComparer.Default.Equals(constructor?.OriginalDefinition, method))
                {
                    sites.Add(new CallSite(operation, model.GetEnclosingSymbol(node.SpanStart, cancellationToken), RareUse.None));
                }
            }
        }

        return sites.ToImmutable();
    }

    /// <summary>
    /// The token names the constructor's type where calls of the constructor follow that the search cannot list: an
    /// alias of the type (<c>using L = Lease;</c>, then <c>new L()</c>), or the base list of a derived class that calls
    /// it implicitly (no constructor declared, a constructor without <c>base(...)</c> or <c>this(...)</c>, or a primary
    /// constructor).
    /// </summary>
    private bool HidesCalls(SyntaxToken token, IMethodSymbol constructor, CancellationToken cancellationToken)
    {
        if (token.Parent is not SimpleNameSyntax name || token.SyntaxTree is not { } tree)
        {
            return false;
        }

        SyntaxNode node = name;
        while (node.Parent is QualifiedNameSyntax qualified && qualified.Right == node || node.Parent is AliasQualifiedNameSyntax)
        {
            node = node.Parent;
        }

        var type = constructor.ContainingType.OriginalDefinition;
        var model = _compilation.GetSemanticModel(tree);
        if (node.Parent is UsingDirectiveSyntax { Alias: not null })
        {
            return SymbolEqualityComparer.Default.Equals(model.GetSymbolInfo(node, cancellationToken).Symbol?.OriginalDefinition, type);
        }

        if (node.Parent is not BaseTypeSyntax { Parent: BaseListSyntax { Parent: TypeDeclarationSyntax declaration } } baseType ||
            model.GetDeclaredSymbol(declaration, cancellationToken) is not INamedTypeSymbol derived ||
            !SymbolEqualityComparer.Default.Equals(derived.BaseType?.OriginalDefinition, type))
        {
            return false;
        }

        if (baseType is PrimaryConstructorBaseTypeSyntax)
        {
            return true;
        }

        foreach (var derivedConstructor in derived.InstanceConstructors)
        {
            if (derivedConstructor.IsImplicitlyDeclared)
            {
                return true;
            }

            foreach (var reference in derivedConstructor.DeclaringSyntaxReferences)
            {
                if (reference.GetSyntax(cancellationToken) is not ConstructorDeclarationSyntax { Initializer: not null })
                {
                    return true;
                }
            }
        }

        return false;
    }

    /// <summary>Why the call <paramref name="call"/> made from <paramref name="caller"/> is cold, or null.</summary>
    private string? CallerReason(IOperation call, ISymbol? caller, int depth, long pollingThresholdMilliseconds, HashSet<IMethodSymbol> visiting, CancellationToken cancellationToken)
    {
        if (caller is IFieldSymbol { IsStatic: true } or IPropertySymbol { IsStatic: true })
        {
            // A static field's or property's initializer runs in the type initializer, once, as a static constructor does.
            return $"only called from the static initializer of {caller.ContainingType.Name}, which runs once";
        }

        if (caller is not IMethodSymbol callerMethod)
        {
            return null;
        }

        // A lambda in a cold member is cold as the site itself would be (ColdContext reads the lambda's containing member,
        // and a local function's name from the call's own ancestors, as for a site in it).
        if (ColdContext.Reason(call, MemberOf(callerMethod), _symbols.IsTestProject) is { } cold)
        {
            return $"only called from {cold}";
        }

        if (PacedRunLoop(call, pollingThresholdMilliseconds) is not null)
        {
            return $"only called once per period of a paced loop in {callerMethod.Name}";
        }

        if (callerMethod.MethodKind == MethodKind.AnonymousFunction)
        {
            // A periodic timer's lambda runs once per period (`new Timer(async _ => await RefreshAsync(), null, 0, 10_000)`),
            // as a method group handed to it does. Otherwise a lambda may run later, per operation, whatever created it:
            // its callers are not followed.
            return EnclosingLambda(call) is not { } lambda ? null
                : IsPeriodicTimerCallback(lambda) ? "only called by a periodic timer"
                : RunsOnceInTypeInitializer(lambda) ? $"only run by the type initializer of {lambda.Symbol.ContainingType.Name}, once"
                : null;
        }


        // A call in a loop of its caller runs once per iteration (per message, per request) however rarely the caller
        // runs; a foreach over a collection in a rarely run caller handles the items of one rare pass, so it goes on.
        // Not an await foreach: a stream's items arrive for as long as it runs, per message.
        if (EnclosingLoop(call) is { } loop && loop is not IForEachLoopOperation { IsAsynchronous: false })
        {
            return null;
        }

        if (_symbols.RunsOnce(callerMethod))
        {
            return $"only called from {callerMethod.ContainingType.Name}.{callerMethod.Name}, which runs once";
        }

        if (callerMethod.MethodKind == MethodKind.Constructor && StartsTicker(call))
        {
            return $"only called from the constructor of {callerMethod.ContainingType.Name}, a service that starts a periodic timer";
        }

        return Reason(callerMethod.CallTarget(), depth - 1, pollingThresholdMilliseconds, visiting, cancellationToken);
    }

    /// <summary>
    /// The member that holds <paramref name="operation"/> creates a timer with a positive constant period: in a
    /// constructor, the object is a long-lived service (a client's refresher, a host's poller) whose constructor runs at
    /// start-up, and what it does once (a first refresh, a delayed start) it does once per service.
    /// </summary>
    public bool StartsTicker(IOperation operation)
    {
        foreach (var node in operation.Root().Descendants())
        {
            if (node is IObjectCreationOperation { Constructor: { } constructor } timer && IsTimer(constructor.ContainingType) &&
                TimerLifetime.PeriodOf(TimerArgument(timer, 3), _symbols) == TimerPeriod.Repeats)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// <c>System.Threading.Timer</c>, or the runtime's <c>CoarseTimer</c>, which has the same constructors and <c>Change</c>:
    /// a periodic timer the CT0003 fix rewrote still paces its callback, so fixing it must not make what the callback
    /// does look hot (Fix All would otherwise raise a warning it did not start with).
    /// </summary>
    private bool IsTimer(INamedTypeSymbol? type) => type.Is(_symbols.Timer) || type.Is(_symbols.CoarseTimer);

    // The member a local function is declared in (through nested local functions); any other method itself.
    private static IMethodSymbol MemberOf(IMethodSymbol method)
    {
        while (method.MethodKind == MethodKind.LocalFunction && method.ContainingSymbol is IMethodSymbol outer)
        {
            method = outer;
        }

        return method;
    }

    private static IAnonymousFunctionOperation? EnclosingLambda(IOperation operation)
    {
        for (var parent = operation.Parent; parent is not null; parent = parent.Parent)
        {
            if (parent is IAnonymousFunctionOperation lambda)
            {
                return lambda;
            }
        }

        return null;
    }

    /// <summary>The loop whose body holds <paramref name="operation"/> in its member (not through a lambda), if any.</summary>
    private static ILoopOperation? EnclosingLoop(IOperation operation)
    {
        for (IOperation? child = operation, parent = operation.Parent; parent is not null; child = parent, parent = parent.Parent)
        {
            switch (parent)
            {
                case ILoopOperation loop when ReferenceEquals(loop.Body, child):
                    return loop;
                case IAnonymousFunctionOperation:
                    return null;
            }
        }

        return null;
    }
    /// <summary>
    /// The call the token names, when it is a call of <paramref name="method"/> (an invocation, an object creation or a
    /// constructor initializer); <paramref name="usedOtherwise"/> when the token names the method some other way (a method
    /// group), so callers cannot all be seen.
    /// </summary>
    private CallSite? CallThrough(SyntaxToken token, IMethodSymbol method, CancellationToken cancellationToken, out bool usedOtherwise)
    {
        usedOtherwise = false;
        if (token.Parent is not SimpleNameSyntax name || token.Parent.Parent is null)
        {
            return null;
        }

        SyntaxNode node = name;
        while (node.Parent is MemberAccessExpressionSyntax access && access.Name == node ||
               node.Parent is MemberBindingExpressionSyntax ||
               node.Parent is QualifiedNameSyntax qualified && qualified.Right == node ||
               node.Parent is AliasQualifiedNameSyntax)
        {
            node = node.Parent;
        }

        if (token.SyntaxTree is not { } tree)
        {
            return null;
        }

        var model = _compilation.GetSemanticModel(tree);
        SyntaxNode? callNode = node.Parent switch
        {
            InvocationExpressionSyntax invocation when invocation.Expression == node => invocation,
            ObjectCreationExpressionSyntax creation when creation.Type == node => creation,
            _ => null,
        };
        if (callNode is null)
        {
            if (node.Parent is ArgumentSyntax { Parent.Parent: InvocationExpressionSyntax { Expression: IdentifierNameSyntax { Identifier.ValueText: "nameof" } } })
            {
                return null;
            }

            // A declaration's own name is not a use; any other use that binds to the method is a method group: callers
            // unseen, unless it is the callback of a periodic timer, which calls it once per period.
            var symbol = model.GetSymbolInfo(node, cancellationToken).Symbol;
            usedOtherwise = symbol is IMethodSymbol used && SymbolEqualityComparer.Default.Equals(used.OriginalDefinition, method);
            if (usedOtherwise && model.GetOperation(node, cancellationToken) is { } group)
            {
                if (PeriodicTimerOf(group) is { } timer)
                {
                    usedOtherwise = false;
                    return new CallSite(timer, model.GetEnclosingSymbol(node.SpanStart, cancellationToken), RareUse.PeriodicTimerCallback);
                }

                if (ColdContext.IsCancellationCallback(group))
                {
                    usedOtherwise = false;
                    return new CallSite(group, model.GetEnclosingSymbol(node.SpanStart, cancellationToken), RareUse.CancellationCallback);
                }

                if (RunsOnceInTypeInitializer(group))
                {
                    usedOtherwise = false;
                    return new CallSite(group, model.GetEnclosingSymbol(node.SpanStart, cancellationToken), RareUse.TypeInitialization);
                }
            }

            return null;
        }

        var operation = model.GetOperation(callNode, cancellationToken);
        var target = operation switch
        {
            IInvocationOperation i => i.TargetMethod,
            IObjectCreationOperation c => c.Constructor,
            _ => null,
        };
        if (target is null && operation is not null && IsCandidate(model.GetSymbolInfo(callNode, cancellationToken), method))
        {
            // A call of the method that did not bind (an argument of a type the compilation cannot resolve): still a call
            // site, made from where it stands, though its arguments cannot be read.
            return new CallSite(operation, model.GetEnclosingSymbol(callNode.SpanStart, cancellationToken), RareUse.None);
        }

        if (target is null || !SymbolEqualityComparer.Default.Equals(target.OriginalDefinition, method))
        {
            return null;
        }

        return new CallSite(operation!, model.GetEnclosingSymbol(callNode.SpanStart, cancellationToken), RareUse.None);
    }

    /// <summary>
    /// Every caller is in this compilation: an ordinary method or a constructor, not virtual, abstract, an override or an
    /// interface implementation (those are called through a base or an interface), with no constructor initializers to
    /// follow (<c>this(...)</c>, <c>base(...)</c>).
    /// </summary>
    private static bool CanSeeEveryCaller(IMethodSymbol method)
    {
        if (method.MethodKind is not (MethodKind.Ordinary or MethodKind.Constructor) || method.IsVirtual || method.IsAbstract || method.IsOverride ||
            method.IsExtern || method.DeclaringSyntaxReferences.Length == 0 || method.ExplicitInterfaceImplementations.Length > 0)
        {
            return false;
        }

        foreach (var type in method.ContainingType.AllInterfaces)
        {
            foreach (var member in type.GetMembers(method.Name))
            {
                if (member is IMethodSymbol)
                {
                    return false;
                }
            }
        }

        return true;
    }

    private static bool IsCandidate(SymbolInfo info, IMethodSymbol method)
    {
        foreach (var candidate in info.CandidateSymbols)
        {
            if (SymbolEqualityComparer.Default.Equals(candidate.OriginalDefinition, method))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>A run loop paced by a periodic wait that holds <paramref name="operation"/> (<see cref="HotPathModel.IsPacedRunLoop"/>), if any.</summary>
    private ILoopOperation? PacedRunLoop(IOperation operation, long pollingThresholdMilliseconds)
    {
        for (IOperation? child = operation, parent = operation.Parent; parent is not null; child = parent, parent = parent.Parent)
        {
            switch (parent)
            {
                case ILoopOperation loop when ReferenceEquals(loop.Body, child) && HotPathModel.IsPacedRunLoop(loop, _symbols, pollingThresholdMilliseconds):
                    return loop;
                case IAnonymousFunctionOperation:
                    return null;
            }
        }

        return null;
    }

    /// <summary>
    /// <paramref name="callback"/> (a method group or a lambda) is run once by its type's initializer: handed to
    /// <c>Task.Run</c>, <c>TaskFactory.StartNew</c> or a <c>Lazy&lt;T&gt;</c> constructor in a static field's or property's
    /// initializer or in a static constructor (<c>static readonly Task&lt;string[]&gt; s_detection = Task.Run(DetectAsync);</c>,
    /// <c>static readonly Lazy&lt;Region&gt; s_region = new(() => Discover());</c>): work done once per process. A delegate
    /// merely stored in a static field (<c>static readonly Func&lt;Task&gt; s_probe = ProbeAsync;</c>) may be called per
    /// operation, and does not count.
    /// </summary>
    private static bool RunsOnceInTypeInitializer(IOperation callback)
    {
        IOperation? starter = callback.ConsumerSkippingDelegateCreation() switch
        {
            IArgumentOperation { Parent: IInvocationOperation { TargetMethod: { Name: "Run" or "StartNew" } method } invocation } when
                method.ContainingType is { Name: "Task" or "TaskFactory", ContainingNamespace: { Name: "Tasks", ContainingNamespace: { Name: "Threading", ContainingNamespace.Name: "System" } } } => invocation,
            IArgumentOperation { Parent: IObjectCreationOperation { Constructor.ContainingType: { Name: "Lazy", ContainingNamespace: { Name: "System", ContainingNamespace.IsGlobalNamespace: true } } } creation } => creation,
            _ => null,
        };
        if (starter is null)
        {
            return false;
        }

        for (var parent = starter.Parent; parent is not null; parent = parent.Parent)
        {
            switch (parent)
            {
                case IAnonymousFunctionOperation or ILocalFunctionOperation:
                    // Started from a delegate: it runs whenever that delegate does.
                    return false;
                case IFieldInitializerOperation field:
                    return field.InitializedFields.All(f => f.IsStatic);
                case IPropertyInitializerOperation property:
                    return property.InitializedProperties.All(p => p.IsStatic);
                case IMethodBodyBaseOperation or IBlockOperation { Parent: null }:
                    return starter.SemanticModel?.GetEnclosingSymbol(starter.Syntax.SpanStart) is IMethodSymbol { MethodKind: MethodKind.StaticConstructor };
            }
        }

        return false;
    }

    /// <summary>
    /// The <c>new Timer(callback, state, dueTime, period)</c> that <paramref name="callback"/> (a method group or a lambda) is
    /// the callback of, when its period is given and is not one-shot (infinite or 0): a periodic timer. Null otherwise.
    /// </summary>
    private IOperation? PeriodicTimerOf(IOperation? callback) =>
        TimerCalling(callback) is { } timer && TimerArgument(timer, 3) is { } period && TimerLifetime.PeriodOf(period, _symbols) != TimerPeriod.OneShot
            ? timer
            : null;

    /// <summary>
    /// The <c>new Timer(callback, ...)</c> that <paramref name="callback"/> is the callback of, or null. Also one that did
    /// not bind only because an argument's type is unresolved (<see cref="UnresolvedCall"/>): an error anywhere in the
    /// callback's body, such as a state of a type from a missing reference passed to another timer inside it, leaves the
    /// creation unbound while it is still that timer.
    /// </summary>
    private IOperation? TimerCalling(IOperation? callback)
    {
        switch (callback?.ConsumerSkippingDelegateCreation())
        {
            case IArgumentOperation { Parameter.Ordinal: 0, Parent: IObjectCreationOperation { Constructor: { } constructor } timer } when IsTimer(constructor.ContainingType):
                return timer;
            case IInvalidOperation unresolved when UnresolvedCall.Arguments(unresolved).Count == 4 && UnresolvedCall.Calls(unresolved, _symbols.Timer, methodName: null) &&
                UnresolvedCall.Arguments(unresolved)[0].Expression == callback!.Syntax:
                return unresolved;
            default:
                return null;
        }
    }

    // The timer creation's argument at ordinal (a bound creation) or in source position (an unresolved one).
    private static IOperation? TimerArgument(IOperation timer, int index) =>
        timer is IInvalidOperation unresolved ? UnresolvedCall.Argument(unresolved, index) : timer.CallArguments().ArgumentFor(index);

    /// <summary>
    /// <paramref name="lambda"/> is the callback of a periodic <c>new Timer(...)</c> (<see cref="PeriodicTimerOf"/>), or of
    /// one that re-arms a timer with <c>Change</c> from its own callback (<c>((Timer)state).Change(next, Infinite)</c>, or
    /// through a local the callback looks it up into: a self-re-arming pacer): what it does, it does once per period, as a
    /// paced loop's body does.
    /// </summary>
    public bool IsPeriodicTimerCallback(IAnonymousFunctionOperation lambda) => PeriodicTimerOf(lambda) is not null || RearmsItsOwnTimer(lambda);

    /// <summary>
    /// <paramref name="localFunction"/> is used only as the callback of periodic <c>new Timer(...)</c>s of its member
    /// (<c>new Timer(OnTick, null, 0, 5000)</c>, at least once, and never called or used otherwise): it runs once per
    /// period, as a lambda or a method given to such a timer does.
    /// </summary>
    public bool IsPeriodicTimerCallback(ILocalFunctionOperation localFunction)
    {
        var used = false;
        foreach (var node in localFunction.Root().Descendants())
        {
            var target = node switch
            {
                IMethodReferenceOperation reference => reference.Method,
                IInvocationOperation invocation => invocation.TargetMethod,
                _ => null,
            };
            if (target is null || !SymbolEqualityComparer.Default.Equals(target.OriginalDefinition, localFunction.Symbol.OriginalDefinition))
            {
                continue;
            }

            if (node is not IMethodReferenceOperation || PeriodicTimerOf(node) is null)
            {
                return false;
            }

            used = true;
        }

        return used;
    }

    /// <summary>
    /// <paramref name="lambda"/> is the callback of a <c>new Timer(...)</c> and re-arms that same timer with <c>Change</c>
    /// and a finite due time (through its state parameter, the variable the timer is stored in, or a local the callback
    /// looks it up into): a self-re-arming pacer, whatever period the timer was created with.
    /// </summary>
    public bool RearmsItsOwnTimer(IAnonymousFunctionOperation lambda)
    {
        if (TimerCalling(lambda) is not { } creation)
        {
            return false;
        }

        // The timer itself: the callback's state parameter (the callback-only constructor passes the timer), or the
        // variable the creation is stored in. Another timer re-armed from here (an idle watchdog) says nothing.
        var state = lambda.Symbol.Parameters.Length == 1 ? lambda.Symbol.Parameters[0] : null;
        var storage = Storage.Of(creation);
        foreach (var node in lambda.Body.Descendants())
        {
            // A Change that disarms (an infinite due time) stops the timer instead.
            if (node is IInvocationOperation { TargetMethod.Name: "Change", Arguments.Length: 2 } change && IsTimer(change.TargetMethod.ContainingType) &&
                !TimerLifetime.IsInfinite(change.Arguments.ArgumentFor(0), _symbols) && IsTimerItself(change.Instance, state, storage, lambda))
            {
                return true;
            }
        }

        return false;
    }

    private static bool IsTimerItself(IOperation? receiver, IParameterSymbol? state, ISymbol? storage, IAnonymousFunctionOperation lambda)
    {
        // A timer the callback looks up for itself (`_timers.TryGetValue(key, out var self); self?.Change(next, Infinite)`):
        // a local of the callback holds no other timer it could have been handed.
        if (receiver.ThroughConditionalAccess() is ILocalReferenceOperation { Local: var callbackLocal } &&
            callbackLocal.DeclaringSyntaxReferences.Length == 1 && lambda.Syntax.Span.Contains(callbackLocal.DeclaringSyntaxReferences[0].Span))
        {
            return true;
        }

        ISymbol? symbol = receiver.WithoutConversions() switch
        {
            IParameterReferenceOperation parameter => parameter.Parameter,
            ILocalReferenceOperation local => local.Local,
            IFieldReferenceOperation field => field.Field,
            IPropertyReferenceOperation property => property.Property,
            _ => null,
        };
        return symbol is not null && (SymbolEqualityComparer.Default.Equals(symbol, state) || SymbolEqualityComparer.Default.Equals(symbol, storage));
    }

    /// <summary>A use of a member that calls it only on a rare path (not a call).</summary>
    private enum RareUse
    {
        None,

        /// <summary>The callback of a periodic timer: called once per period.</summary>
        PeriodicTimerCallback,

        /// <summary>A <c>CancellationToken.Register</c> callback: called when the token is cancelled.</summary>
        CancellationCallback,

        /// <summary>Started once by its type's initializer (<c>static readonly Task s_t = Task.Run(Detect);</c>).</summary>
        TypeInitialization,
    }

    /// <summary>One call of a followed member: the call, the member it is made from, and whether it is a rare use instead.</summary>
    private readonly struct CallSite
    {
        public CallSite(IOperation call, ISymbol? caller, RareUse rareUse)
        {
            Call = call;
            Caller = caller;
            RareUse = rareUse;
        }

        public IOperation Call { get; }

        public ISymbol? Caller { get; }

        public RareUse RareUse { get; }

        public void Deconstruct(out IOperation call, out ISymbol? caller, out RareUse rareUse)
        {
            call = Call;
            caller = Caller;
            rareUse = RareUse;
        }
    }
}
