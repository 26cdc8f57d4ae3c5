using CoarseTimers.Analyzers.Baseline;
using CoarseTimers.Analyzers.Internals;
using CoarseTimers.Analyzers.Shared;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Rules;

/// <summary>
/// CT0004: <c>SpinWait.SpinUntil</c> whose wait is long-running: (a) a constant timeout of at least
/// <c>spin_long_wait_ms</c>; (b) a predicate that reads a clock; (c) a predicate that blocks or does I/O; (d) a predicate
/// method or local function (in the same file) that does (b) or (c); (e) a call on a hot path (rules 1, 2, 4, 5); (f) a
/// configured timeout (a field, property or parameter). In test code, cold contexts (<see cref="ColdContext"/>) and members only
/// cold code calls (<see cref="ColdCallers"/>) only (e)
/// applies.
/// A predicate that only reads fields, with no timeout and outside hot paths, is not flagged.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class SpinUntilAnalyzer : CoarseTimersAnalyzer
{
    public SpinUntilAnalyzer()
        : base(RuleDescriptors.SpinUntil)
    {
    }

    private protected override bool IsValid(KnownSymbols symbols) => symbols.SpinWait is not null;

    private protected override void Register(CompilationStartAnalysisContext context, RuleContext rule)
    {
        context.RegisterOperationAction(ctx => Analyze(ctx, rule), OperationKind.Invocation);
    }

    private static void Analyze(OperationAnalysisContext context, RuleContext rule)
    {
        var invocation = (IInvocationOperation)context.Operation;
        var symbols = rule.Symbols;
        if (!Matches(invocation, symbols))
        {
            return;
        }

        var settings = rule.Settings(invocation.Syntax.SyntaxTree);
        // Test code and cold contexts (start-up, dispose, shutdown, catch blocks), and members only they call, wait
        // rarely: only (e) speaks there, and only when declared hot or scope = all.
        var rare = symbols.IsColdProject(settings) || ColdContext.SiteReason(invocation, context.ContainingSymbol, symbols, context.CancellationToken) is not null ||
                   HotPathModel.CalledOnlyFromColdCode(invocation, context.ContainingSymbol, symbols, settings.PollingThresholdMilliseconds, context.CancellationToken);
        var signal = rare
            ? HotPathSignal(invocation, context.ContainingSymbol, symbols, settings, context.CancellationToken)
            : LongTimeoutSignal(invocation, symbols, settings)
              ?? PredicateSignal(invocation.Arguments.ArgumentFor(0), symbols, context.CancellationToken)
              ?? HotPathSignal(invocation, context.ContainingSymbol, symbols, settings, context.CancellationToken);
        if (signal is not null)
        {
            context.ReportDiagnostic(Diagnostic.Create(RuleDescriptors.SpinUntil, invocation.Syntax.GetLocation(), BaselineMember.Properties(context.ContainingSymbol), signal));
        }
    }

    /// <summary>The rule's call, for the analyzer and the code fix alike: <c>SpinWait.SpinUntil</c>, every overload.</summary>
    internal static bool Matches(IInvocationOperation invocation, KnownSymbols symbols) => invocation.TargetMethod.IsMethodOf(symbols.SpinWait, "SpinUntil");

    /// <summary>
    /// (a) a constant timeout of at least spin_long_wait_ms; (f) a configured timeout (a field, property or parameter, also
    /// converted: <c>TimeSpan.FromMilliseconds(_timeoutMs)</c>): the caller expects to wait. An infinite timeout
    /// (<c>Timeout.Infinite</c>, <c>Timeout.InfiniteTimeSpan</c>) is no timeout: the predicate decides alone.
    /// </summary>
    private static string? LongTimeoutSignal(IInvocationOperation invocation, KnownSymbols symbols, AnalyzerSettings settings)
    {
        var timeout = invocation.Arguments.ArgumentFor(1);
        if (TimerLifetime.IsInfinite(timeout, symbols))
        {
            return null;
        }

        if (TimeoutConstants.Milliseconds(timeout, symbols) is double ms)
        {
            return ms >= settings.SpinLongWaitMilliseconds ? $"constant timeout of {ms:0.###} ms" : null;
        }

        var configured = TimeoutConstants.FactoryValue(timeout, symbols, out _) ?? timeout.WithoutConversions();
        return configured is IFieldReferenceOperation or IPropertyReferenceOperation or IParameterReferenceOperation
            ? "configured timeout"
            : null;
    }

    private static string? HotPathSignal(IInvocationOperation invocation, ISymbol containingSymbol, KnownSymbols symbols, AnalyzerSettings settings, System.Threading.CancellationToken cancellationToken) =>
        HotPathModel.Reason(invocation, containingSymbol, symbols, settings, HotPathRules.LoopsDelegatesDeclared, cancellationToken: cancellationToken) is { } reason ? "hot path: " + reason : null;

    private static string? PredicateSignal(IOperation? predicate, KnownSymbols symbols, System.Threading.CancellationToken cancellationToken)
    {
        predicate = predicate.WithoutConversions();
        if (predicate is IDelegateCreationOperation delegateCreation)
        {
            predicate = delegateCreation.Target.WithoutConversions();
        }

        switch (predicate)
        {
            case IAnonymousFunctionOperation function:
                return BodySignal(function.Body, symbols, prefix: "predicate");
            case IMethodReferenceOperation reference:
                var body = BodyOf(reference.Method, predicate.SemanticModel, cancellationToken);
                return body is null ? null : BodySignal(body, symbols, prefix: $"predicate method '{reference.Method.Name}'");
            default:
                return null;
        }
    }

    /// <summary>The body of a method or local function declared in the same syntax tree, as operations.</summary>
    private static IOperation? BodyOf(IMethodSymbol method, SemanticModel? model, System.Threading.CancellationToken cancellationToken)
    {
        if (model is null)
        {
            return null;
        }

        foreach (var reference in method.DeclaringSyntaxReferences)
        {
            if (reference.SyntaxTree != model.SyntaxTree)
            {
                continue;
            }

            var node = reference.GetSyntax(cancellationToken);
            SyntaxNode? body = node switch
            {
                BaseMethodDeclarationSyntax m => (SyntaxNode?)m.Body ?? m.ExpressionBody?.Expression,
                LocalFunctionStatementSyntax f => (SyntaxNode?)f.Body ?? f.ExpressionBody?.Expression,
                _ => null,
            };
            if (body is not null)
            {
                return model.GetOperation(body, cancellationToken);
            }
        }

        return null;
    }

    private static string? BodySignal(IOperation body, KnownSymbols symbols, string prefix)
    {
        foreach (var operation in body.DescendantsAndSelf())
        {
            var member = operation switch
            {
                IInvocationOperation i => (ISymbol)i.TargetMethod,
                IPropertyReferenceOperation p => p.Property,
                IObjectCreationOperation { Constructor: { } c } => c,
                _ => null,
            };
            if (member?.ContainingType is not { } type)
            {
                continue;
            }

            var name = $"{type.Name}.{(member is IMethodSymbol { MethodKind: MethodKind.Constructor } ? "ctor" : member.Name)}";
            if (ReadsClock(member, type, symbols))
            {
                return $"{prefix} reads a clock: {name}";
            }

            if (Blocks(member, type, symbols))
            {
                return $"{prefix} blocks or does I/O: {name}";
            }
        }

        return null;
    }

    private static bool ReadsClock(ISymbol member, INamedTypeSymbol type, KnownSymbols symbols) =>
        type.Is(symbols.Stopwatch) || type.IsOrInheritsFrom(symbols.TimeProvider) ||
        ((type.Is(symbols.DateTime) || type.Is(symbols.DateTimeOffset)) && member.Name is "Now" or "UtcNow") ||
        (type.Is(symbols.Environment) && member.Name is "TickCount" or "TickCount64");

    private static bool Blocks(ISymbol member, INamedTypeSymbol type, KnownSymbols symbols)
    {
        var original = type.OriginalDefinition;
        return (type.Is(symbols.Thread) && member.Name == "Sleep") ||
               (type.Is(symbols.Task) && member.Name is "Wait" or "WaitAll" or "WaitAny") ||
               (original.Is(symbols.TaskOfT) && member.Name == "Result") ||
               ((original.Is(symbols.TaskAwaiter) || original.Is(symbols.TaskAwaiterOfT) || original.Is(symbols.ValueTaskAwaiter) || original.Is(symbols.ValueTaskAwaiterOfT)) && member.Name == "GetResult") ||
               (type.IsOrInheritsFrom(symbols.WaitHandle) && member.Name.StartsWith("Wait", System.StringComparison.Ordinal)) ||
               type.Is(symbols.Monitor) ||
               type.IsInNamespace("System", "IO") || type.IsInNamespace("System", "Net");
    }
}
