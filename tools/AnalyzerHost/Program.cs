using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace CoarseTimers.AnalyzerHost;

/// <summary>
/// Command line: <c>check</c> runs the analyzers of a folder over a project and prints what loaded and what was
/// reported; <c>score</c> scores them on the labelled corpus. Usage and exit codes: README.md.
/// </summary>
internal static class Program
{
    private const string Usage =
        "usage:\n" +
        "  AnalyzerHost check <folder-or-csproj> --analyzers <folder with analyzer .dlls>\n" +
        "  AnalyzerHost score --analyzers <folder> --corpus <tests/corpus> --snapshots <folder of owner__repo snapshots>";

    public static int Main(string[] args)
    {
        if (args.Length == 0)
        {
            Console.Error.WriteLine(Usage);
            return 2;
        }

        var options = new Dictionary<string, string>(StringComparer.Ordinal);
        var positional = new List<string>();
        for (var i = 1; i < args.Length; i++)
        {
            if (args[i].StartsWith("--", StringComparison.Ordinal) && i + 1 < args.Length)
            {
                options[args[i]] = args[++i];
            }
            else
            {
                positional.Add(args[i]);
            }
        }

        if (!options.TryGetValue("--analyzers", out var analyzerFolder))
        {
            Console.Error.WriteLine(Usage);
            return 2;
        }

        var loader = AnalyzerLoader.Load(analyzerFolder);
        foreach (var error in loader.LoadErrors)
        {
            Console.Error.WriteLine($"load error: {error}");
        }

        if (loader.Analyzers.IsEmpty)
        {
            Console.Error.WriteLine($"no analyzers loaded from {analyzerFolder}");
            return 1;
        }

        switch (args[0])
        {
            case "check" when positional.Count == 1:
                return Check(positional[0], loader);
            case "score" when options.ContainsKey("--corpus") && options.ContainsKey("--snapshots"):
                return CorpusScorer.Run(options["--corpus"], options["--snapshots"], loader.Analyzers, Console.Out) == 0 && loader.LoadErrors.IsEmpty ? 0 : 1;
            default:
                Console.Error.WriteLine(Usage);
                return 2;
        }
    }

    private static int Check(string target, AnalyzerLoader loader)
    {
        Console.WriteLine($"Roslyn: {typeof(Microsoft.CodeAnalysis.Compilation).Assembly.GetName().Version}");
        foreach (var analyzer in loader.Analyzers)
        {
            Console.WriteLine($"analyzer: {analyzer.GetType().FullName} ({string.Join(", ", analyzer.SupportedDiagnostics.Select(d => d.Id))})");
        }

        foreach (var fixer in loader.Fixers)
        {
            Console.WriteLine($"fixer: {fixer.GetType().FullName} ({string.Join(", ", fixer.FixableDiagnosticIds)})");
        }

        var projects = ProjectsOf(target).ToList();
        var reported = 0;
        var ad0001 = 0;
        foreach (var project in projects)
        {
            var run = AnalyzerRun.Run(project, loader.Analyzers);
            ad0001 += run.AD0001;
            foreach (var d in run.Diagnostics.Where(d => d.Location.IsInSource).OrderBy(d => d.Location.SourceTree!.FilePath, StringComparer.Ordinal).ThenBy(d => d.Location.SourceSpan.Start))
            {
                var span = d.Location.GetLineSpan();
                Console.WriteLine($"{span.Path}({span.StartLinePosition.Line + 1},{span.StartLinePosition.Character + 1}): {d.Severity.ToString().ToLowerInvariant()} {d.Id}: {d.GetMessage()}");
                reported++;
            }

            foreach (var exception in run.Exceptions)
            {
                Console.WriteLine($"analyzer exception: {exception}");
            }
        }

        Console.WriteLine($"{projects.Count} project(s), {reported} diagnostic(s), AD0001: {ad0001}, load errors: {loader.LoadErrors.Length}");
        return ad0001 == 0 && loader.LoadErrors.IsEmpty ? 0 : 1;
    }

    /// <summary>A .csproj, a project folder, or a folder of projects (each compiled on its own); otherwise a loose folder.</summary>
    private static IEnumerable<SourceProject> ProjectsOf(string target)
    {
        if (File.Exists(target))
        {
            return new[] { SourceProject.FromFolder(Path.GetDirectoryName(Path.GetFullPath(target))!) };
        }

        if (Directory.EnumerateFiles(target, "*.csproj").Any())
        {
            return new[] { SourceProject.FromFolder(target) };
        }

        var nested = Directory.EnumerateFiles(target, "*.csproj", SearchOption.AllDirectories)
            .Where(p => !p.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .Select(p => Path.GetDirectoryName(p)!).Distinct().OrderBy(p => p, StringComparer.Ordinal).ToList();
        return nested.Count > 0 ? nested.Select(f => SourceProject.FromFolder(f, target)) : new[] { SourceProject.FromFolder(target) };
    }
}
