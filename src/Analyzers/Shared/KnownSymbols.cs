using System.Collections.Immutable;
using System.Linq;
using CoarseTimers.Analyzers.Internals;
using Microsoft.CodeAnalysis;

namespace CoarseTimers.Analyzers.Shared;

/// <summary>
/// The BCL symbols the rules match and the runtime symbols the fixes write, resolved once per compilation (matching is
/// by symbol, never by name, so a user's own <c>Delay</c> or <c>Timer</c> is never flagged), plus per-compilation facts
/// such as "is this a test project". The analyzers and the code fixes share one instance per compilation.
/// </summary>
internal sealed class KnownSymbols
{
    private static readonly ImmutableHashSet<string> s_testFrameworkAssemblies = ImmutableHashSet.Create(
        System.StringComparer.OrdinalIgnoreCase,
        "xunit.core", "xunit.v3.core", "nunit.framework", "Microsoft.VisualStudio.TestPlatform.TestFramework", "MSTest.TestFramework");

    // One instance per compilation, shared by the four rules, so symbols and the entry point are resolved once.
    // The four rules' compilation-start actions run at once and would each build it (ConditionalWeakTable may run the
    // factory on every racing thread): the Lazy builds it once and the others wait for it.
    private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<Compilation, System.Lazy<KnownSymbols>> s_byCompilation = new();

    private readonly System.Lazy<IMethodSymbol?> _entryPoint;

    /// <summary>The symbols of <paramref name="compilation"/>, resolved on first use by any rule.</summary>
    public static KnownSymbols For(Compilation compilation) => s_byCompilation.GetValue(compilation, static c => new System.Lazy<KnownSymbols>(() => new KnownSymbols(c))).Value;

    private KnownSymbols(Compilation compilation)
    {
        Task = compilation.GetTypeByMetadataName("System.Threading.Tasks.Task");
        CancellationTokenSource = compilation.GetTypeByMetadataName("System.Threading.CancellationTokenSource");
        Timer = compilation.GetTypeByMetadataName("System.Threading.Timer");
        SpinWait = compilation.GetTypeByMetadataName("System.Threading.SpinWait");
        TimeProvider = compilation.GetTypeByMetadataName("System.TimeProvider");
        TimeSpan = compilation.GetTypeByMetadataName("System.TimeSpan");
        Parallel = compilation.GetTypeByMetadataName("System.Threading.Tasks.Parallel");
        List = compilation.GetTypeByMetadataName("System.Collections.Generic.List`1");
        Enumerable = compilation.GetTypeByMetadataName("System.Linq.Enumerable");
        Stopwatch = compilation.GetTypeByMetadataName("System.Diagnostics.Stopwatch");
        DateTime = compilation.GetTypeByMetadataName("System.DateTime");
        DateTimeOffset = compilation.GetTypeByMetadataName("System.DateTimeOffset");
        Environment = compilation.GetTypeByMetadataName("System.Environment");
        Thread = compilation.GetTypeByMetadataName("System.Threading.Thread");
        Monitor = compilation.GetTypeByMetadataName("System.Threading.Monitor");
        WaitHandle = compilation.GetTypeByMetadataName("System.Threading.WaitHandle");
        TaskOfT = compilation.GetTypeByMetadataName("System.Threading.Tasks.Task`1");
        TaskAwaiter = compilation.GetTypeByMetadataName("System.Runtime.CompilerServices.TaskAwaiter");
        TaskAwaiterOfT = compilation.GetTypeByMetadataName("System.Runtime.CompilerServices.TaskAwaiter`1");
        ValueTaskAwaiter = compilation.GetTypeByMetadataName("System.Runtime.CompilerServices.ValueTaskAwaiter");
        ValueTaskAwaiterOfT = compilation.GetTypeByMetadataName("System.Runtime.CompilerServices.ValueTaskAwaiter`1");
        CancellationToken = compilation.GetTypeByMetadataName("System.Threading.CancellationToken");
        GC = compilation.GetTypeByMetadataName("System.GC");
        CoarseTimer = compilation.GetTypeByMetadataName("CoarseTimers.CoarseTimer");
        CoarseCancellationTokenSource = compilation.GetTypeByMetadataName("CoarseTimers.CoarseCancellationTokenSource");
        CoarseSourceResets = CoarseCancellationTokenSource?.GetMembers("TryReset").Any(static m => m is IMethodSymbol { IsStatic: false, Parameters.IsEmpty: true }) == true;
        CoarseTimeout = compilation.GetTypeByMetadataName("CoarseTimers.CoarseTimeout");
        SpinThenBlock = compilation.GetTypeByMetadataName("CoarseTimers.SpinThenBlock");
        IsTestProject = compilation.ReferencedAssemblyNames.Any(static a => s_testFrameworkAssemblies.Contains(a.Name)) ||
                        ColdContext.IsTestAssemblyName(compilation.AssemblyName);
        IsCommandLineTool = ColdContext.IsCommandLineToolName(compilation.AssemblyName);
        IsSampleProject = ColdContext.IsSampleAssemblyName(compilation.AssemblyName);
        var names = new NameOccurrences(compilation);
        Callers = new ColdCallers(compilation, this, names);
        // Finding the entry point binds every Main candidate: done on first need, once per compilation.
        _entryPoint = new System.Lazy<IMethodSymbol?>(() => compilation.Options.OutputKind is OutputKind.ConsoleApplication or OutputKind.WindowsApplication
            ? compilation.GetEntryPoint(System.Threading.CancellationToken.None)
            : null);
    }

    public INamedTypeSymbol? Task { get; }
    public INamedTypeSymbol? CancellationTokenSource { get; }
    public INamedTypeSymbol? Timer { get; }
    public INamedTypeSymbol? SpinWait { get; }
    public INamedTypeSymbol? TimeProvider { get; }
    public INamedTypeSymbol? TimeSpan { get; }
    public INamedTypeSymbol? Parallel { get; }
    public INamedTypeSymbol? List { get; }
    public INamedTypeSymbol? Enumerable { get; }
    public INamedTypeSymbol? Stopwatch { get; }
    public INamedTypeSymbol? DateTime { get; }
    public INamedTypeSymbol? DateTimeOffset { get; }
    public INamedTypeSymbol? Environment { get; }
    public INamedTypeSymbol? Thread { get; }
    public INamedTypeSymbol? Monitor { get; }
    public INamedTypeSymbol? WaitHandle { get; }
    public INamedTypeSymbol? TaskOfT { get; }
    public INamedTypeSymbol? TaskAwaiter { get; }
    public INamedTypeSymbol? TaskAwaiterOfT { get; }
    public INamedTypeSymbol? ValueTaskAwaiter { get; }
    public INamedTypeSymbol? ValueTaskAwaiterOfT { get; }
    public INamedTypeSymbol? CancellationToken { get; }
    public INamedTypeSymbol? GC { get; }

    // The runtime's types, which the code fixes write: null when the compilation does not reference the runtime.
    public INamedTypeSymbol? CoarseTimer { get; }
    public INamedTypeSymbol? CoarseCancellationTokenSource { get; }

    /// <summary>
    /// The referenced runtime's coarse source declares its own <c>TryReset</c> (its net8.0 build does; the netstandard2.0
    /// build a net6.0 or net7.0 target gets does not, so there <c>TryReset</c> binds to the BCL's).
    /// </summary>
    public bool CoarseSourceResets { get; }
    public INamedTypeSymbol? CoarseTimeout { get; }
    public INamedTypeSymbol? SpinThenBlock { get; }

    /// <summary>
    /// The compilation references xunit, NUnit or MSTest, or its assembly name has a test or benchmark segment
    /// (<c>Foo.Tests</c>, <c>Foo.UnitTests</c>, <c>Foo.Benchmarks</c>): polling loops and timeouts there are normal.
    /// </summary>
    public bool IsTestProject { get; }

    /// <summary>
    /// A segment of the assembly name is <c>Cli</c> (<c>Aspire.Cli</c>, <c>Contoso.Cli.Tool</c>): a command-line tool, whose
    /// commands run once per invocation by a person or a script, so what they time out is one-off work (rules 1–3 off).
    /// </summary>
    public bool IsCommandLineTool { get; }

    /// <summary>
    /// A segment of the assembly name ends in Sample, Example or Demo (<c>Contoso.Samples</c>, <c>ImapClientDemo</c>): a
    /// program that shows how to use a library, run by hand (rules 1–3 off).
    /// </summary>
    public bool IsSampleProject { get; }

    /// <summary>Rules 1–3 never apply in this compilation: test code (unless analysed on request), a command-line tool or a sample.</summary>
    public bool IsColdProject(AnalyzerSettings settings) => (IsTestProject && !settings.AnalyzeTestProjects) || IsCommandLineTool || IsSampleProject;

    /// <summary>Who calls a member, within the compilation: a member called only from cold code is cold (hot-path model).</summary>
    public ColdCallers Callers { get; }

    /// <summary>The program's entry point (Main or the top-level statements), which runs once.</summary>
    public IMethodSymbol? EntryPoint => _entryPoint.Value;

    /// <summary>
    /// The member runs once per process: a static constructor, the entry point, or a hosted service's
    /// <c>ExecuteAsync</c> (an override in a type deriving from <c>BackgroundService</c>, Microsoft.Extensions.Hosting, by
    /// name when unresolved), which the host calls once when it starts. What runs in a loop of it is judged by the loop.
    /// </summary>
    public bool RunsOnce(IMethodSymbol method) =>
        method.MethodKind == MethodKind.StaticConstructor || SymbolEqualityComparer.Default.Equals(method, EntryPoint) ||
        method is { Name: "ExecuteAsync", IsOverride: true, ContainingType: { } type } && type.InheritsFromNamed("BackgroundService", "Microsoft.Extensions.Hosting", orUnresolved: true);

    /// <summary>True when <paramref name="method"/> has a parameter of type <c>System.TimeProvider</c>.</summary>
    public bool TakesTimeProvider(IMethodSymbol method) =>
        TimeProvider is not null && method.Parameters.Any(p => SymbolEqualityComparer.Default.Equals(p.Type, TimeProvider));
}
