using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.Loader;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Diagnostics;

namespace CoarseTimers.AnalyzerHost;

/// <summary>
/// Loads every analyzer assembly of one folder the way the compiler does: one <see cref="AnalyzerFileReference"/> per
/// <c>.dll</c>, all sharing one <see cref="IAnalyzerAssemblyLoader"/> whose load context resolves the folder's own
/// assemblies from the folder and everything else (Roslyn, the BCL) from the host, so the analyzers bind to the
/// host's Roslyn 4.8. Code-fix providers are found by their <see cref="ExportCodeFixProviderAttribute"/>.
/// </summary>
internal sealed class AnalyzerLoader : IAnalyzerAssemblyLoader
{
    private readonly FolderLoadContext _context = new();

    private AnalyzerLoader()
    {
    }

    /// <summary>The analyzers found in <c>*.dll</c> of the folder, plus load failures as messages.</summary>
    public ImmutableArray<DiagnosticAnalyzer> Analyzers { get; private set; }

    public ImmutableArray<CodeFixProvider> Fixers { get; private set; }

    public ImmutableArray<string> LoadErrors { get; private set; }

    public static AnalyzerLoader Load(string folder)
    {
        var loader = new AnalyzerLoader();
        var paths = Directory.EnumerateFiles(Path.GetFullPath(folder), "*.dll").OrderBy(p => p, StringComparer.Ordinal).ToList();
        foreach (var path in paths)
        {
            loader.AddDependencyLocation(path);
        }

        var errors = new List<string>();
        var analyzers = new List<DiagnosticAnalyzer>();
        var fixers = new List<CodeFixProvider>();
        foreach (var path in paths)
        {
            var reference = new AnalyzerFileReference(path, loader);
            reference.AnalyzerLoadFailed += (_, e) => errors.Add($"{Path.GetFileName(path)}: {e.ErrorCode}: {e.Message}");
            analyzers.AddRange(reference.GetAnalyzers(LanguageNames.CSharp));
            fixers.AddRange(LoadFixers(loader, path, errors));
        }

        if (paths.Count == 0)
        {
            errors.Add($"no .dll in {folder}");
        }

        loader.Analyzers = analyzers.ToImmutableArray();
        loader.Fixers = fixers.ToImmutableArray();
        loader.LoadErrors = errors.ToImmutableArray();
        return loader;
    }

    public void AddDependencyLocation(string fullPath) => _context.Add(fullPath);

    public Assembly LoadFromPath(string fullPath) => _context.LoadFromAssemblyPath(fullPath);

    private static IEnumerable<CodeFixProvider> LoadFixers(AnalyzerLoader loader, string path, List<string> errors)
    {
        Type[] types;
        try
        {
            types = loader.LoadFromPath(path).GetTypes();
        }
        catch (Exception e) when (e is ReflectionTypeLoadException or BadImageFormatException or FileLoadException)
        {
            errors.Add($"{Path.GetFileName(path)}: {e.GetType().Name}: {e.Message}");
            return Array.Empty<CodeFixProvider>();
        }

        return types
            .Where(t => !t.IsAbstract && typeof(CodeFixProvider).IsAssignableFrom(t) &&
                        t.GetCustomAttributes<ExportCodeFixProviderAttribute>().Any(a => a.Languages.Contains(LanguageNames.CSharp)))
            .Select(t => (CodeFixProvider)Activator.CreateInstance(t)!)
            .ToList();
    }

    /// <summary>Resolves the folder's assemblies by simple name; defers everything the host already has.</summary>
    private sealed class FolderLoadContext : AssemblyLoadContext
    {
        // The platform's assemblies and the host's own (Roslyn 4.8 among them), by simple name.
        private static readonly ImmutableHashSet<string> s_hostAssemblies =
            ((AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES") as string) ?? string.Empty)
                .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
                .Concat(Directory.EnumerateFiles(AppContext.BaseDirectory, "*.dll"))
                .Select(Path.GetFileNameWithoutExtension)
                .OfType<string>()
                .ToImmutableHashSet(StringComparer.OrdinalIgnoreCase);

        private readonly ConcurrentDictionary<string, string> _paths = new(StringComparer.OrdinalIgnoreCase);

        public FolderLoadContext()
            : base("analyzers", isCollectible: false)
        {
        }

        public void Add(string fullPath) => _paths.TryAdd(Path.GetFileNameWithoutExtension(fullPath), fullPath);

        protected override Assembly? Load(AssemblyName assemblyName)
        {
            // Roslyn and the BCL come from the host: an analyzer must bind to the compiler that runs it.
            if (assemblyName.Name is null || s_hostAssemblies.Contains(assemblyName.Name))
            {
                return null;
            }

            return _paths.TryGetValue(assemblyName.Name, out var path) ? LoadFromAssemblyPath(path) : null;
        }
    }
}
