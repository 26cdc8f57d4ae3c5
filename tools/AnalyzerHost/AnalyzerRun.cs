using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;

namespace CoarseTimers.AnalyzerHost;

/// <summary>
/// Compiles one <see cref="SourceProject"/>, once per target build, against the net8.0 reference assemblies and runs the loaded analyzers on it
/// with <see cref="CompilationWithAnalyzers"/>, as the compiler does after binding. Compiler errors (unresolved
/// references) are expected and ignored; analyzer exceptions are collected, never swallowed.
/// </summary>
internal static class AnalyzerRun
{
    // The SDK's implicit usings for Microsoft.NET.Sdk, added when a project enables them.
    private const string ImplicitUsingsSource =
        "global using global::System;\nglobal using global::System.Collections.Generic;\nglobal using global::System.IO;\n" +
        "global using global::System.Linq;\nglobal using global::System.Net.Http;\nglobal using global::System.Threading;\n" +
        "global using global::System.Threading.Tasks;\n";

    private static readonly Lazy<ImmutableArray<MetadataReference>> s_references = new(LoadReferences);

    /// <summary>
    /// Runs the analyzers on every target build of <paramref name="project"/> (<see cref="TargetBuild"/>) and returns the
    /// union of their diagnostics, as a multi-targeting build reports them: a site both targets compile is one diagnostic.
    /// </summary>
    public static RunResult Run(SourceProject project, ImmutableArray<DiagnosticAnalyzer> analyzers, CancellationToken cancellationToken = default)
    {
        var diagnostics = new List<Diagnostic>();
        var seen = new HashSet<(string Id, string? Path, TextSpan Span)>();
        var ad0001 = 0;
        var exceptions = new List<string>();
        foreach (var target in project.Targets)
        {
            var run = RunTarget(project, target, analyzers, cancellationToken);
            ad0001 += run.AD0001;
            exceptions.AddRange(run.Exceptions.Select(e => project.Targets.Length > 1 ? $"[{target.Framework}] {e}" : e));
            foreach (var d in run.Diagnostics)
            {
                if (seen.Add((d.Id, d.Location.SourceTree?.FilePath, d.Location.SourceSpan)))
                {
                    diagnostics.Add(d);
                }
            }
        }

        return new RunResult(project, diagnostics.ToImmutableArray(), ad0001, exceptions.Distinct().ToImmutableArray());
    }

    private static RunResult RunTarget(SourceProject project, TargetBuild target, ImmutableArray<DiagnosticAnalyzer> analyzers, CancellationToken cancellationToken)
    {
        var parseOptions = new CSharpParseOptions(LanguageVersion.Latest, DocumentationMode.None, SourceCodeKind.Regular, target.Symbols);
        var trees = new List<SyntaxTree>();
        foreach (var file in project.Files)
        {
            using var stream = File.OpenRead(file);
            trees.Add(CSharpSyntaxTree.ParseText(SourceText.From(stream), parseOptions, file, cancellationToken));
        }

        if (project.ImplicitUsings)
        {
            trees.Add(CSharpSyntaxTree.ParseText(ImplicitUsingsSource, parseOptions, Path.Combine(project.Folder, "obj", "ImplicitUsings.g.cs"), cancellationToken: cancellationToken));
        }

        if (!project.GlobalUsings.IsEmpty)
        {
            trees.Add(CSharpSyntaxTree.ParseText(string.Join("\n", project.GlobalUsings), parseOptions, Path.Combine(project.Folder, "obj", "GlobalUsings.g.cs"), cancellationToken: cancellationToken));
        }

        var options = new CSharpCompilationOptions(
            project.IsExe ? OutputKind.ConsoleApplication : OutputKind.DynamicallyLinkedLibrary,
            allowUnsafe: true,
            nullableContextOptions: NullableContextOptions.Enable,
            concurrentBuild: false);
        var compilation = CSharpCompilation.Create(project.AssemblyName, trees, s_references.Value, options);

        var exceptions = new ConcurrentBag<string>();
        var withAnalyzers = compilation.WithAnalyzers(analyzers, new CompilationWithAnalyzersOptions(
            new AnalyzerOptions(ImmutableArray<AdditionalText>.Empty),
            (exception, analyzer, diagnostic) => exceptions.Add($"{analyzer.GetType().Name}: {exception.GetType().Name}: {exception.Message} ({diagnostic.Location.GetLineSpan()})"),
            concurrentAnalysis: false,
            logAnalyzerExecutionTime: false,
            reportSuppressedDiagnostics: false,
            analyzerExceptionFilter: null));
        var diagnostics = withAnalyzers.GetAnalyzerDiagnosticsAsync(cancellationToken).GetAwaiter().GetResult();
        if (Environment.GetEnvironmentVariable("ANALYZER_HOST_COMPILER_ERRORS") is { Length: > 0 } filter)
        {
            // Debugging aid: the compiler errors (unresolved references) in files whose path contains the filter.
            foreach (var error in compilation.GetDiagnostics(cancellationToken).Where(d => d.Severity == DiagnosticSeverity.Error && d.Location.SourceTree?.FilePath.Contains(filter, StringComparison.Ordinal) == true).Take(40))
            {
                Console.Error.WriteLine(error.ToString());
            }
        }

        var ad0001 = diagnostics.Where(d => d.Id == "AD0001").ToList();
        foreach (var d in ad0001)
        {
            exceptions.Add(d.GetMessage());
        }

        return new RunResult(project, diagnostics.Where(d => d.Id != "AD0001").ToImmutableArray(), ad0001.Count, exceptions.Distinct().ToImmutableArray());
    }

    private static ImmutableArray<MetadataReference> LoadReferences()
    {
        var directory = typeof(AnalyzerRun).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
            .Single(a => a.Key == "ReferenceAssemblies").Value!;
        if (!Directory.Exists(directory))
        {
            throw new InvalidOperationException($"Reference assemblies not found at '{directory}'. Run 'dotnet restore tools/AnalyzerHost' first.");
        }

        return Directory.EnumerateFiles(directory, "*.dll").Select(p => (MetadataReference)MetadataReference.CreateFromFile(p)).ToImmutableArray();
    }
}

/// <summary>The analyzers' diagnostics on one project, the AD0001 count and every analyzer exception message.</summary>
internal sealed record RunResult(SourceProject Project, ImmutableArray<Diagnostic> Diagnostics, int AD0001, ImmutableArray<string> Exceptions);
